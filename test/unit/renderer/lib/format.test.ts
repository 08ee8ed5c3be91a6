import { describe, expect, it } from 'vitest';
import { formatCompact, formatCount } from '../../../../src/renderer/src/lib/format';
import { seededRandom } from '../../../fixtures/seeded-random';

const intlCount = new Intl.NumberFormat('en-US');
const intlCompact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** Whole numbers at every size, the edges where a compact unit rounds up into the next among them. */
function samples(): number[] {
  const random = seededRandom(28);
  const values = [0, 1, 9, 999, 1000, 1049, 1050, 1051, 9_950, 99_949, 99_950, 999_949, 999_950, 1_000_000];
  for (let power = 1; power <= 17; power++) {
    const base = 10 ** power;
    values.push(base - 1, base, base + 1, base * 0.9995, base * 0.99949, Math.floor(random() * base));
  }
  for (let i = 0; i < 2000; i++) values.push(Math.floor(random() * 10 ** (1 + Math.floor(random() * 15))));
  return values.flatMap((value) => [value, -value]).map(Math.round);
}

describe('number formatting', () => {
  it('writes whole numbers exactly as Intl en-US does, without building an Intl formatter', () => {
    for (const value of samples()) {
      expect(formatCount(value), String(value)).toBe(intlCount.format(value));
      expect(formatCompact(value), String(value)).toBe(intlCompact.format(value));
    }
  });

  it('leaves fractions, negative zero and numbers past exact arithmetic to Intl', () => {
    for (const value of [0.5, 1234.5678, -0, 2 ** 60, 1e15 + 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatCount(value)).toBe(intlCount.format(value));
      expect(formatCompact(value)).toBe(intlCompact.format(value));
    }
  });
});
