import { readFile } from 'node:fs/promises';
import { Settings } from '../../shared/api/settings';
import { tokenFile } from '../paths';
import { forbidden } from '../server/api-error';
import type { App, RouteDeps } from '../server/types';

export interface SettingsDeps extends RouteDeps {
  /** The data directory whose token file is shown; without one (some tests) nothing is read. */
  dataDir?: string | undefined;
  version: string;
}

/** The token file's content, trimmed; null when the file is missing or unreadable. */
async function readToken(dataDir: string | undefined): Promise<string | null> {
  if (dataDir === undefined) return null;
  try {
    const token = (await readFile(tokenFile(dataDir), 'utf8')).trim();
    return token === '' ? null : token;
  } catch {
    return null;
  }
}

export function registerSettingsRoutes(app: App, { dataDir, version }: SettingsDeps): void {
  app.get(
    '/v1/settings',
    {
      schema: {
        tags: ['settings'],
        summary: "The data directory, version and owner's token, for the viewer (workspace owner only)",
        response: { 200: Settings },
      },
    },
    async (request) => {
      // The token file holds the owner's own credential: nobody else may read it.
      if (!request.user.is_workspace_owner) throw forbidden('only the workspace owner may read the settings');
      return { data_dir: dataDir ?? '', version, token: await readToken(dataDir) };
    },
  );
}
