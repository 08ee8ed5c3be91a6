import { describe, expect, it } from 'vitest';
import { walksTokenIndex } from '../../../src/main/scans/token-order-walk';

const page = { offset: 0, limit: 50 };

describe('walksTokenIndex', () => {
  it('walks when the matches are many: a page is found long before the index ends', () => {
    expect(walksTokenIndex({ matches: 1_100_000, scans: 10_000_000, ...page })).toBe(true);
    expect(walksTokenIndex({ matches: 10_000_000, scans: 10_000_000, ...page })).toBe(true);
  });

  it('sorts the matches when they are few, or none', () => {
    expect(walksTokenIndex({ matches: 1_000, scans: 10_000_000, ...page })).toBe(false);
    expect(walksTokenIndex({ matches: 0, scans: 10_000_000, ...page })).toBe(false);
  });

  it('turns near the square root of the rows a walk would read', () => {
    // √(50 × 10,000,000 / 6) ≈ 9,129
    expect(walksTokenIndex({ matches: 9_000, scans: 10_000_000, ...page })).toBe(false);
    expect(walksTokenIndex({ matches: 9_300, scans: 10_000_000, ...page })).toBe(true);
  });

  it('weighs a deep page as the rows before it too', () => {
    expect(walksTokenIndex({ matches: 50_000, scans: 10_000_000, offset: 0, limit: 50 })).toBe(true);
    expect(walksTokenIndex({ matches: 50_000, scans: 10_000_000, offset: 5_000, limit: 50 })).toBe(false);
  });
});
