import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../../src/main/workspace/data-dir';
import { writeServerInfo } from '../../../src/main/workspace/server-file';
import { openWorkspace } from '../../../src/main/workspace/workspace';

// Everything in a data directory is the workspace's: the store and its WAL, the owner's token, the
// server's key (docs/security.md, Server identity) and its address. Each file is 0600 whatever
// the umask, and in a directory that already existed with looser permissions.

const modes = (dir: string): Record<string, string> =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, (statSync(join(dir, name)).mode & 0o777).toString(8)]));

describe.skipIf(process.platform === 'win32')('data directory files', () => {
  let dir: string;
  let umask: number;
  beforeEach(() => {
    umask = process.umask(0o022);
    dir = mkdtempSync(join(tmpdir(), 'scandesk-files-'));
    chmodSync(dir, 0o755);
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  it('are created 0600 in an existing 0755 directory', async () => {
    const workspace = await openWorkspace(dir);
    try {
      writeServerInfo(dir, { url: 'http://127.0.0.1:4790', pid: process.pid });
      const files = modes(dir);
      // The WAL and its index exist while the store is open: all of them are checked.
      expect(Object.keys(files).sort()).toEqual(
        ['scandesk.db', 'scandesk.db-shm', 'scandesk.db-wal', 'server-key', 'server.json', 'token'].sort(),
      );
      expect(Object.values(files)).toEqual(Object.values(files).map(() => '600'));
    } finally {
      await workspace.close();
    }
  });

  it('tighten a store an older version left readable to others', async () => {
    const file = databaseFile(dir);
    writeFileSync(file, '', { mode: 0o644 });
    writeFileSync(`${file}-wal`, '', { mode: 0o644 });
    const workspace = await openWorkspace(dir);
    await workspace.close();
    expect(modes(dir)['scandesk.db']).toBe('600');
  });
});
