import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readFile } from 'node:fs/promises';
import { Settings } from '../../shared/api/settings';
import { tokenFile } from '../workspace/data-dir';
import { forbidden } from '../domain-error';
import type { RouteDeps } from '../http/route-types';

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

/** Enough to tell two tokens apart (the last 4 of 43 random characters), nothing to use. */
const tokenHint = (token: string): string => `${token.slice(0, 4)}…${token.slice(-4)}`;

export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsDeps> = async (app, { dataDir, version }) => {
  app.get(
    '/v1/settings',
    {
      schema: {
        tags: ['settings'],
        summary: "The data directory, version and owner's token, for the viewer (workspace owner only)",
        description:
          'The token itself only to a caller that authenticated with it (a bearer token): a browser session ' +
          'gets `token: null` and `token_hint`, so a stolen session cookie never yields the permanent token.',
        response: { 200: Settings },
      },
    },
    async (request) => {
      // The token file holds the owner's own credential: nobody else may read it.
      if (!request.user.is_workspace_owner) throw forbidden('only the workspace owner may read the settings');
      const token = await readToken(dataDir);
      return {
        data_dir: dataDir ?? '',
        version,
        token: request.authenticatedBy === 'bearer' ? token : null,
        token_hint: token === null ? null : tokenHint(token),
      };
    },
  );
};
