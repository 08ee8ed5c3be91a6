import { describe, expect, it } from 'vitest';
import { encodeCopyText } from '../../../../src/main/db/postgres/copy-rows';

describe('encodeCopyText', () => {
  it('writes rows of tab-separated columns, null as \\N, numbers and bigints as their digits', () => {
    expect(encodeCopyText(['a', 1, null, 'b', 2n ** 62n, 1.5], 3, 2)).toBe('a\t1\t\\N\nb\t4611686018427387904\t1.5\n');
  });

  it('escapes backslash, tab, newline and carriage return, and leaves the rest as it is', () => {
    expect(encodeCopyText(['a\\b\tc\nd\re', '\\N', 'é 🙂 "q"'], 3, 1)).toBe('a\\\\b\\tc\\nd\\re\t\\\\N\té 🙂 "q"\n');
  });

  it('encodes only the first rowCount rows of a longer buffer', () => {
    expect(encodeCopyText(['x', 'y', 'stale', 'stale'], 2, 1)).toBe('x\ty\n');
  });

  it('tells an empty string from null', () => {
    expect(encodeCopyText(['', null], 2, 1)).toBe('\t\\N\n');
  });
});
