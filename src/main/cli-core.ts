// The one door from the command line (src/cli/) into the core, as core.ts is the desktop shell's:
// lint keeps src/cli from reaching further, so the core can be reorganised without the CLI
// noticing. It offers operations (serve a workspace, rotate a token, copy a store), never a
// repository or a database handle.
//
// A client command (`scandesk scans list`) must start at once, so this file loads only the light
// modules (paths, addresses, the server's identity check): importing the server, the workspace
// and the database drivers costs about a second. The operations that need them load them when
// called.

import type { DatabaseLocation, CopySummary } from './db/index';

export {
  DatabaseUrlError,
  describeLocation,
  maskSecrets,
  parseDatabaseUrl,
  urlHasPassword,
  type DatabaseLocation,
  type PostgresLocation,
} from './db/database-location';
export { PasswordFileError, readPasswordFile } from './db/postgres/password-file';
export { isIdentityProof, normalizeAddress, type SocketEnd } from './identity/identity-proof';
export { readServerKey } from './identity/server-key';
export { rendererDir } from './renderer-dir';
export { DEFAULT_HOST, DEFAULT_PORT } from './server/default-address';
export { VERSION } from './version';
export { databaseFile, defaultDataDir, serverKeyFile, tokenFile } from './workspace/data-dir';
export { liveServerUrl } from './workspace/server-file';

/** The function `load` imports, as one that imports it at its first call. */
function loadedOnCall<A extends unknown[], R>(
  load: () => Promise<(...args: A) => Promise<R>>,
): (...args: A) => Promise<R> {
  return async (...args) => (await load())(...args);
}

/** `scandesk serve`: the workspace of a data directory, then the server on it. */
export const openWorkspace = loadedOnCall(async () => (await import('./workspace/workspace')).openWorkspace);
export const startServer = loadedOnCall(async () => (await import('./server/listen')).startServer);

/** `scandesk demo`: fills a data directory with generated organizations, scans and evidence. */
export const runDemo = loadedOnCall(async () => (await import('./demo/demo.service')).runDemo);

/**
 * `scandesk token --rotate [--user ID]`: rotates a user's tokens in a data directory's store,
 * with no caller to check (whoever holds the directory holds its owner's token already): the
 * workspace owner's unless `userId` names another user. The owner's new token replaces the token
 * file's; another user's is theirs to keep, returned and written nowhere.
 */
export async function rotateTokensInDataDir(
  dataDir: string,
  options: { database?: DatabaseLocation | undefined; userId?: string | undefined },
): Promise<{ token: string; inTokenFile: boolean }> {
  const [{ openWorkspace, writeTokenFile }, { findWorkspaceOwner }, { rotateTokensOf }] = await Promise.all([
    import('./workspace/workspace'),
    import('./users/users.repository'),
    import('./users/tokens.service'),
  ]);
  const workspace = await openWorkspace(dataDir, { database: options.database });
  try {
    const owner = await findWorkspaceOwner(workspace.db);
    if (!owner) throw new Error('the store has no workspace owner');
    const userId = options.userId ?? owner.id;
    const { token } = await rotateTokensOf(workspace.db, userId);
    if (userId !== owner.id) return { token, inTokenFile: false };
    writeTokenFile(dataDir, token);
    return { token, inTokenFile: true };
  } finally {
    await workspace.close();
  }
}

/**
 * `scandesk store copy`: every row of one store into another, all or nothing. Both are upgraded
 * to the latest schema first, as any start would, so that the copy runs between equal schemas.
 * `onCopying` hears the number of rows to copy, once they are counted, and returns what hears
 * each copied page's.
 */
export async function copyStore(
  from: DatabaseLocation,
  to: DatabaseLocation,
  onCopying: (total: number) => (rows: number) => void,
): Promise<CopySummary> {
  const [{ checkReachable, openDatabase }, { migrateToLatest }, storeCopy] = await Promise.all([
    import('./db/open-database'),
    import('./db/migrate'),
    import('./db/store-copy'),
  ]);
  const source = openDatabase(from);
  const target = openDatabase(to);
  try {
    await checkReachable(source, from);
    await checkReachable(target, to);
    await migrateToLatest(source);
    await migrateToLatest(target);
    const { total } = await storeCopy.countRows(source);
    return await storeCopy.copyStore(source, target, onCopying(total));
  } finally {
    await source.destroy();
    await target.destroy();
  }
}
