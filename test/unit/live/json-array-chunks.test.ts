import { describe, expect, it } from 'vitest';
import { jsonArrayChunks } from '../../../src/main/live/json-array-chunks';

describe('jsonArrayChunks', () => {
  it('keeps every item, in order, in arrays under the byte limit', () => {
    const items = Array.from({ length: 500 }, (_, n) => ({ n, name: n % 7 === 0 ? '漢字é'.repeat(n % 20) : 'x' }));
    const chunks = jsonArrayChunks(items, 300);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(Buffer.byteLength(chunk)).toBeLessThanOrEqual(300);
    expect(chunks.flatMap((chunk) => JSON.parse(chunk) as unknown[])).toEqual(items);
  });

  it('fills an array exactly to the limit', () => {
    // Each item is `1` (1 byte): [1,1,1] is 7 bytes.
    expect(jsonArrayChunks([1, 1, 1, 1], 7)).toEqual(['[1,1,1]', '[1]']);
  });

  it('leaves out an item that cannot fit alone, and nothing else', () => {
    expect(jsonArrayChunks(['a', 'b'.repeat(50), 'c'], 20)).toEqual(['["a","c"]']);
  });

  it('answers nothing for nothing', () => {
    expect(jsonArrayChunks([], 100)).toEqual([]);
  });
});
