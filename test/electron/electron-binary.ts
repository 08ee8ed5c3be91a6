import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ELECTRON_DIR = join(ROOT, 'node_modules', 'electron');

/**
 * The installed Electron executable, found the way scripts/start.mjs finds it. Never through
 * `require('electron')`, which tries to download the binary when it is missing.
 */
export function electronExecutable(): string | undefined {
  const pathFile = join(ELECTRON_DIR, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const executable = join(ELECTRON_DIR, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : undefined;
}

export const NO_ELECTRON_REASON = `Electron binary not installed here: ${join('node_modules', 'electron', 'path.txt')} and the binary it names under dist/ are missing (npm ci fetches it where the network allows)`;
