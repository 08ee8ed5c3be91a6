import { describe, expect, it } from 'vitest';
import { powerOfTwoChunks } from '../../../src/main/db/row-chunks';

describe('powerOfTwoChunks', () => {
  const sizes = (count: number, max: number) =>
    powerOfTwoChunks(
      Array.from({ length: count }, (_, i) => i),
      max,
    ).map((chunk) => chunk.length);

  it('cuts a batch into powers of two, largest first, none over the largest allowed', () => {
    expect(sizes(0, 64)).toEqual([]);
    expect(sizes(1, 64)).toEqual([1]);
    expect(sizes(27, 64)).toEqual([16, 8, 2, 1]);
    expect(sizes(64, 64)).toEqual([64]);
    expect(sizes(200, 64)).toEqual([64, 64, 64, 8]);
  });

  it('keeps every item once, in order', () => {
    for (let count = 0; count <= 300; count++) {
      const items = Array.from({ length: count }, (_, i) => i);
      const chunks = powerOfTwoChunks(items, 64);
      expect(chunks.flat()).toEqual(items);
      for (const chunk of chunks) expect([1, 2, 4, 8, 16, 32, 64]).toContain(chunk.length);
    }
  });
});
