import { describe, expect, it } from 'vitest';
import { BinaryCopyRows } from '../../../../src/main/db/postgres/binary-copy-rows';
import { binaryCopyOf } from '../../../helpers/binary-copy';

describe('BinaryCopyRows', () => {
  it('reads int4, int8 and text fields in place, row by row', () => {
    const rows = new BinaryCopyRows(
      binaryCopyOf([
        [{ int4: 0 }, { int8: 1_735_689_600_000 }, { text: 'chat.completion' }],
        [{ int4: -7 }, { int8: -1 }, { text: 'café 🚀 "q"\t\\' }],
        [{ int4: 2 ** 31 - 1 }, { int8: Number.MIN_SAFE_INTEGER }, { text: '' }],
      ]),
      3,
    );
    expect(rows.length).toBe(3);
    expect([0, 1, 2].map((row) => [rows.int4(row, 0), rows.int8(row, 1), rows.text(row, 2)])).toEqual([
      [0, 1_735_689_600_000, 'chat.completion'],
      [-7, -1, 'café 🚀 "q"\t\\'],
      [2 ** 31 - 1, Number.MIN_SAFE_INTEGER, ''],
    ]);
    expect(rows.bytes.subarray(rows.start(0, 2), rows.end(0, 2)).toString()).toBe('chat.completion');
  });

  it('reads int8 past 2^53 as Number of its decimal text does', () => {
    const values = [2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), 9_007_199_254_740_993n, -9_007_199_254_740_995n];
    const rows = new BinaryCopyRows(binaryCopyOf(values.map((int8) => [{ int8 }])), 1);
    expect(values.map((_, row) => rows.int8(row, 0))).toEqual(values.map((value) => Number(String(value))));
  });

  it('skips a header extension and reads an output without rows', () => {
    const rows = new BinaryCopyRows(binaryCopyOf([[{ int4: 5 }]], 6), 1);
    expect(rows.int4(0, 0)).toBe(5);
    expect(new BinaryCopyRows(binaryCopyOf([]), 4).length).toBe(0);
  });

  it('reads more rows than its first guess of their number holds', () => {
    const many = Array.from({ length: 5000 }, (_, i) => [{ int4: i }, { text: i % 2 ? '' : 'x' }]);
    const rows = new BinaryCopyRows(binaryCopyOf(many), 2);
    expect(rows.length).toBe(5000);
    expect(rows.int4(4999, 0)).toBe(4999);
  });

  it('refuses what is not the output it was told to expect', () => {
    const good = binaryCopyOf([[{ int4: 1 }, { int4: 2 }]]);
    expect(() => new BinaryCopyRows(Buffer.from('1\t2\n'), 2)).toThrow(/signature/);
    expect(() => new BinaryCopyRows(good, 3)).toThrow(/has 2 fields, expected 3/);
    expect(() => new BinaryCopyRows(good.subarray(0, good.length - 2), 2)).toThrow(/trailer/);
    expect(() => new BinaryCopyRows(good.subarray(0, good.length - 4), 2)).toThrow(/past the end|trailer/);
    const withNull = Buffer.from(good);
    withNull.writeInt32BE(-1, 19 + 2);
    expect(() => new BinaryCopyRows(withNull, 2)).toThrow(/NULL/);
  });
});
