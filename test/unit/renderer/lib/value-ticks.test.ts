import { describe, expect, it } from 'vitest';
import { valueTicks } from '../../../../src/renderer/src/lib/value-ticks';

describe('valueTicks', () => {
  it('steps evenly at 1, 2 or 5 times a power of ten, from 0 past the largest value', () => {
    expect(valueTicks(2300)).toEqual([0, 1000, 2000, 3000]);
    expect(valueTicks(3000)).toEqual([0, 1000, 2000, 3000]);
    expect(valueTicks(730)).toEqual([0, 200, 400, 600, 800]);
    expect(valueTicks(41_000_000)).toEqual([0, 20_000_000, 40_000_000, 60_000_000]);
  });

  it('counts in whole numbers, and draws an axis for nothing', () => {
    expect(valueTicks(3)).toEqual([0, 1, 2, 3]);
    expect(valueTicks(0)).toEqual([0, 1]);
  });

  it('never gives more than maxTicks', () => {
    for (const max of [1, 7, 99, 101, 2499, 2501, 999_999]) {
      for (const maxTicks of [3, 5, 8]) expect(valueTicks(max, maxTicks).length).toBeLessThanOrEqual(maxTicks);
    }
  });
});
