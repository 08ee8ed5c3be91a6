import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

// A remote's token lives beside the store, never in it (a store copy or a PostgreSQL dump must not
// carry it): `<data dir>/remotes/<remote id>.token`, the folder 0700 and the file 0600, as the
// owner's own token file. Written whole or not at all: to a temporary file, then renamed over.

export const remotesDir = (dataDir: string): string => join(dataDir, 'remotes');

/** Remote ids are prefixed ULIDs (`rmt_…`), so the name is a plain file name. */
export const remoteTokenFile = (dataDir: string, remoteId: string): string =>
  join(remotesDir(dataDir), `${remoteId}.token`);

export async function writeRemoteToken(dataDir: string, remoteId: string, token: string): Promise<void> {
  const dir = remotesDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing folder's mode as it was (a umask, a hand-made folder).
  await chmod(dir, 0o700);
  const file = remoteTokenFile(dataDir, remoteId);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // 'wx': never through a file or link someone placed there first; 0600 from the first byte.
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${token}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The token, trimmed; null when the file is missing, empty or unreadable. */
export async function readRemoteToken(dataDir: string, remoteId: string): Promise<string | null> {
  try {
    const token = (await readFile(remoteTokenFile(dataDir, remoteId), 'utf8')).trim();
    return token === '' ? null : token;
  } catch {
    return null;
  }
}

export async function removeRemoteToken(dataDir: string, remoteId: string): Promise<void> {
  await rm(remoteTokenFile(dataDir, remoteId), { force: true });
}
