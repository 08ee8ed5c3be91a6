import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readRemoteToken,
  remoteTokenFile,
  remotesDir,
  removeRemoteToken,
  writeRemoteToken,
} from '../../../../src/main/sync/remotes/remote-token-file';

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('remote token files', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'scandesk-remote-token-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes <data dir>/remotes/<id>.token, the folder 0700 and the file 0600', async () => {
    await writeRemoteToken(dataDir, 'rmt_1', 'sdt_secret');
    const file = remoteTokenFile(dataDir, 'rmt_1');
    expect(file).toBe(join(dataDir, 'remotes', 'rmt_1.token'));
    expect(readFileSync(file, 'utf8')).toBe('sdt_secret\n');
    expect(mode(file)).toBe(0o600);
    expect(mode(remotesDir(dataDir))).toBe(0o700);
    expect(await readRemoteToken(dataDir, 'rmt_1')).toBe('sdt_secret');
  });

  it('tightens a folder that was there with a looser mode', async () => {
    mkdirSync(remotesDir(dataDir), { mode: 0o755 });
    chmodSync(remotesDir(dataDir), 0o755);
    await writeRemoteToken(dataDir, 'rmt_1', 'a');
    expect(mode(remotesDir(dataDir))).toBe(0o700);
  });

  it('replaces a token by renaming a whole new file over it, leaving no temporary file', async () => {
    await writeRemoteToken(dataDir, 'rmt_1', 'first');
    const before = statSync(remoteTokenFile(dataDir, 'rmt_1')).ino;
    await writeRemoteToken(dataDir, 'rmt_1', 'second');
    const after = statSync(remoteTokenFile(dataDir, 'rmt_1'));
    // A new inode: the old file was never opened for writing, so a reader sees one token or the other.
    expect(after.ino).not.toBe(before);
    expect(after.mode & 0o777).toBe(0o600);
    expect(await readRemoteToken(dataDir, 'rmt_1')).toBe('second');
    expect(readdirSync(remotesDir(dataDir))).toEqual(['rmt_1.token']);
  });

  it('leaves the old token and no temporary file when the write fails', async () => {
    await writeRemoteToken(dataDir, 'rmt_1', 'first');
    // A folder where the file should be: the rename fails after the temporary file was written.
    mkdirSync(remoteTokenFile(dataDir, 'rmt_2'));
    writeFileSync(join(remoteTokenFile(dataDir, 'rmt_2'), 'x'), '');
    await expect(writeRemoteToken(dataDir, 'rmt_2', 'second')).rejects.toThrow();
    expect(readdirSync(remotesDir(dataDir)).sort()).toEqual(['rmt_1.token', 'rmt_2.token']);
    expect(await readRemoteToken(dataDir, 'rmt_1')).toBe('first');
  });

  it('reads null for a missing or empty file, and removes a file that may be gone already', async () => {
    expect(await readRemoteToken(dataDir, 'rmt_9')).toBeNull();
    await writeRemoteToken(dataDir, 'rmt_9', '   ');
    expect(await readRemoteToken(dataDir, 'rmt_9')).toBeNull();
    await removeRemoteToken(dataDir, 'rmt_9');
    await removeRemoteToken(dataDir, 'rmt_9');
    expect(readdirSync(remotesDir(dataDir))).toEqual([]);
  });
});
