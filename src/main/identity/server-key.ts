import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { serverKeyFile } from '../workspace/data-dir';

/** 32 random bytes, hex, in `<data-dir>/server-key`, mode 0600; made once, kept across restarts. */
export function ensureServerKey(dataDir: string): void {
  const file = serverKeyFile(dataDir);
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (error) {
    // Another process on the same data directory may have made it first: theirs is the key.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** The data directory's key, or null when it has none (a store no server of this version opened). */
export function readServerKey(dataDir: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(serverKeyFile(dataDir), 'utf8').trim();
  } catch {
    return null;
  }
  return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, 'hex') : null;
}
