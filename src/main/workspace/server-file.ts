import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// <data-dir>/server.json tells the CLI where the desktop app's embedded server listens, since
// that is a free port whenever the default one (4790) was taken.

export interface ServerInfo {
  url: string;
  pid: number;
}

export const serverInfoFile = (dataDir: string): string => join(dataDir, 'server.json');

/** Written whole then renamed, so a reader never sees half a file. */
export function writeServerInfo(dataDir: string, info: ServerInfo): void {
  const file = serverInfoFile(dataDir);
  const temporary = `${file}.${info.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ url: info.url, pid: info.pid })}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** Removes the file only if it is still this process's: a newer instance may have replaced it. */
export function removeServerInfo(dataDir: string, pid: number): void {
  const file = serverInfoFile(dataDir);
  if (readServerInfo(dataDir)?.pid === pid) rmSync(file, { force: true });
}

/** Signal 0 checks existence only; EPERM means it exists but belongs to someone else. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readServerInfo(dataDir: string): ServerInfo | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(serverInfoFile(dataDir), 'utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { url, pid } = value as Record<string, unknown>;
  if (typeof url !== 'string' || !/^http:\/\/[^/\s]+$/.test(url)) return null;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  return { url, pid };
}

/**
 * The URL of a running desktop app on this data directory, or null: a file left behind by a
 * crashed app names a dead process and is ignored.
 */
export function liveServerUrl(dataDir: string, isAlive: (pid: number) => boolean = isProcessAlive): string | null {
  const info = readServerInfo(dataDir);
  return info && isAlive(info.pid) ? info.url : null;
}
