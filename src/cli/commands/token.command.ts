import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CreatedToken, TokenList } from '../../shared/api/tokens';
import type { User } from '../../shared/api/users';
import { defaultDataDir, rotateTokensInDataDir, tokenFile } from '../../main/cli-core';
import { printJson, table, writeErr, writeOut } from '../output';
import { EXIT, UsageError } from '../usage-error';
import { CLIENT_OPTIONS, clientFrom } from './client-flags';
import { DATABASE_OPTION, databaseFlag } from './database-flag';
import { tokenHelp } from './help';

const API_ACTIONS = new Set(['list', 'create', 'revoke', 'rotate']);

/**
 * `scandesk token [--rotate]` works on a data directory's store and token file (the owner's way
 * back in, with no server running); `token list|create|revoke|rotate` go through the API, like
 * every client command, as the caller (the workspace owner may name any user with --user).
 */
export async function tokenCommand(args: string[]): Promise<number> {
  const [action] = args;
  if (action !== undefined && API_ACTIONS.has(action)) return apiAction(action, args.slice(1));
  if (action !== undefined && !action.startsWith('-')) {
    throw new UsageError(`token: unknown action "${action}"\n${tokenHelp}`);
  }
  return localToken(args);
}

async function localToken(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'data-dir': { type: 'string' },
      rotate: { type: 'boolean', default: false },
      user: { type: 'string' },
      ...DATABASE_OPTION,
    },
  });
  if (values.user !== undefined && !values.rotate) throw new UsageError(`token: --user needs --rotate\n${tokenHelp}`);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  if (values.rotate) {
    const { token, inTokenFile } = await rotateTokensInDataDir(dataDir, {
      database: databaseFlag(values.database, values['database-password-file']),
      userId: values.user,
    });
    if (!inTokenFile) {
      // Another user's token is theirs to keep: shown once, never written to this directory.
      writeOut(`${token}\n`);
      return EXIT.ok;
    }
  }
  try {
    writeOut(`${readFileSync(tokenFile(dataDir), 'utf8').trim()}\n`);
    return EXIT.ok;
  } catch {
    writeErr(
      `error: no token file at ${tokenFile(dataDir)}; start the server once with this data directory, or run \`scandesk token --rotate\`\n`,
    );
    return EXIT.failed;
  }
}

async function apiAction(action: string, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...CLIENT_OPTIONS, user: { type: 'string' } },
    allowPositionals: true,
  });
  const client = clientFrom(values);
  const enc = encodeURIComponent;
  if (action === 'revoke') {
    const [tokenId, ...extra] = positionals;
    if (!tokenId || extra.length > 0) throw new UsageError(`token revoke: give one TOKEN_ID\n${tokenHelp}`);
    if (values.user !== undefined) throw new UsageError(`token revoke: --user is not needed\n${tokenHelp}`);
    await client.request<undefined>('DELETE', `/v1/tokens/${enc(tokenId)}`);
    if (values.json) printJson({ revoked: tokenId });
    else writeOut(`revoked ${tokenId}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`token ${action}: unexpected "${positionals[0]}"\n${tokenHelp}`);
  const userId = values.user ?? (await client.request<User>('GET', '/v1/me')).id;
  const tokensPath = `/v1/users/${enc(userId)}/tokens`;
  if (action === 'list') {
    const { tokens } = await client.request<TokenList>('GET', tokensPath);
    if (values.json) printJson({ tokens });
    else if (tokens.length === 0) writeOut('no tokens\n');
    else
      writeOut(
        `${table(
          ['ID', 'HINT', 'CREATED', 'LAST USED'],
          tokens.map((t) => [t.id, t.hint ?? '-', t.created_at, t.last_used_at ?? 'never']),
        )}\n`,
      );
    return EXIT.ok;
  }
  const created = await client.request<CreatedToken>('POST', action === 'rotate' ? `${tokensPath}/rotate` : tokensPath);
  if (values.json) printJson(created);
  else printCreated(created, action === 'rotate');
  return EXIT.ok;
}

/** The new token on stdout alone (scripts capture it); what happened on stderr. */
function printCreated(created: CreatedToken, rotated: boolean): void {
  writeErr(
    rotated
      ? `every earlier token of ${created.user_id} is revoked and their sessions ended; new token ${created.id}, shown once:\n`
      : `new token ${created.id} for ${created.user_id}, shown once:\n`,
  );
  writeOut(`${created.token}\n`);
}
