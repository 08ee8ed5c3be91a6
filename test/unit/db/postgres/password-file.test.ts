import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PasswordFileError, readPasswordFile } from '../../../../src/main/db/postgres/password-file';

describe('readPasswordFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scandesk-password-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content, { mode: 0o600 });
    return path;
  };

  it('reads the first line, without its line break', () => {
    expect(readPasswordFile(file('a', 's3cret\n'))).toBe('s3cret');
    expect(readPasswordFile(file('b', 's3cret\r\nsecond\n'))).toBe('s3cret');
    expect(readPasswordFile(file('c', ' spaces kept '))).toBe(' spaces kept ');
  });

  it('refuses a missing or empty file, naming the file but not its content', () => {
    expect(() => readPasswordFile(join(dir, 'missing'))).toThrow(PasswordFileError);
    expect(() => readPasswordFile(join(dir, 'missing'))).toThrow(
      /cannot read the database password file .*missing \(ENOENT\)/,
    );
    expect(() => readPasswordFile(file('empty', '\nnot-this\n'))).toThrow(/is empty/);
  });
});
