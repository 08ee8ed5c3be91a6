import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_FOLDER = 'Scandesk';

/**
 * `SCANDESK_DATA_DIR`, else the platform's user-data folder: the same folder Electron's
 * `userData` names for this app, so the CLI and the desktop app share one store.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.SCANDESK_DATA_DIR) return env.SCANDESK_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER);
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), APP_FOLDER);
}

export const databaseFile = (dataDir: string): string => join(dataDir, 'scandesk.db');
export const tokenFile = (dataDir: string): string => join(dataDir, 'token');
export const serverKeyFile = (dataDir: string): string => join(dataDir, 'server-key');
