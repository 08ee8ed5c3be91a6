import { describe, expect, it } from 'vitest';
import { CopyText, type CopyValue } from '../../../../src/main/db/postgres/copy-rows';

function encode(params: readonly CopyValue[], width: number, rowCount: number, buffer?: Buffer): CopyText {
  const text = new CopyText(buffer);
  for (let at = 0; at < rowCount * width; at++) text.value(params[at]!, (at + 1) % width === 0);
  return text;
}

const text = (params: readonly CopyValue[], width: number, rowCount: number): string =>
  encode(params, width, rowCount).bytes().toString('utf8');

describe('CopyText', () => {
  it('writes rows of tab-separated columns, null as \\N, numbers and bigints as their digits', () => {
    expect(text(['a', 1, null, 'b', 2n ** 62n, 1.5], 3, 2)).toBe('a\t1\t\\N\nb\t4611686018427387904\t1.5\n');
  });

  it('writes integers as String() does, negative, zero and the largest safe ones included', () => {
    const numbers = [0, -0, 7, -42, 1_735_689_600_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e21, -2.5];
    expect(text(numbers, numbers.length, 1)).toBe(`${numbers.map(String).join('\t')}\n`);
  });

  it('escapes backslash, tab, newline and carriage return, and leaves the rest as it is', () => {
    expect(text(['a\\b\tc\nd\re', '\\N', 'é 🙂 "q"', 'ü\t\\'], 4, 1)).toBe(
      'a\\\\b\\tc\\nd\\re\t\\\\N\té 🙂 "q"\tü\\t\\\\\n',
    );
  });

  it('tells an empty string from null', () => {
    expect(text(['', null], 2, 1)).toBe('\t\\N\n');
  });

  it('writes into the buffer given while the rows fit, and into a larger one, whole, when they do not', () => {
    const given = Buffer.alloc(64);
    expect(encode(['a', 1], 2, 1, given).buffer).toBe(given);
    const params = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? `row ${i} ü` : i * 1000));
    const large = encode(params, 2, 50, given);
    expect(large.buffer).not.toBe(given);
    const rows = Array.from({ length: 50 }, (_, i) => `row ${2 * i} ü\t${(2 * i + 1) * 1000}\n`).join('');
    expect(large.bytes().toString('utf8')).toBe(rows);
  });
});
