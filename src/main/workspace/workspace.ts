import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import {
  checkReachable,
  type DatabaseLocation,
  type Db,
  migrateToLatest,
  type OpenDatabaseOptions,
  openStore,
  refreshPlannerStatistics,
  type Store,
} from '../db/index';
import { databaseFile, tokenFile } from './data-dir';
import { ensureServerKey } from '../identity/server-key';
import { ensureWorkspaceOwner } from '../users/users.service';

export interface Workspace {
  dataDir: string;
  db: Db;
  /** What lives as long as the database (its group commit, scan feed, live streams); closed by close(). */
  store: Store;
  /** Where the store is: the data directory's SQLite file, or a PostgreSQL database. */
  database: DatabaseLocation;
  /** Set only on the first start, when the owner and its token were just created. */
  createdToken: string | null;
  close(): Promise<void>;
}

export interface WorkspaceOptions extends OpenDatabaseOptions {
  /** A PostgreSQL store instead of the data directory's SQLite file (see database-location.ts). */
  database?: DatabaseLocation | undefined;
  /** `SCANDESK_TOKEN` at first start becomes the owner's token instead of a random one. */
  initialToken?: string | undefined;
  /** Told the pending migrations before an existing store is upgraded (see migrateToLatest). */
  onUpgrade?: ((pending: string[]) => void) | undefined;
}

export class WorkspaceError extends Error {
  override readonly name = 'WorkspaceError';
}

export function checkInitialToken(token: string): void {
  if (token.length < 16 || /[\s\p{Cc}]/u.test(token)) {
    throw new WorkspaceError('SCANDESK_TOKEN must be at least 16 characters with no spaces or control characters');
  }
}

/** Writes the token file readable by its owner only (mode 0600), whatever the umask. */
export function writeTokenFile(dataDir: string, token: string): void {
  const file = tokenFile(dataDir);
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * Opens (creating if needed) a data directory: its server key, the database (its SQLite file, or
 * the PostgreSQL database of `options.database`), migrated to the latest schema, and on first
 * start the workspace owner `local` with its token file. On a PostgreSQL store shared by several
 * servers, the first to start creates the owner and writes the token file in its data directory.
 */
export async function openWorkspace(dataDir: string, options: WorkspaceOptions = {}): Promise<Workspace> {
  if (options.initialToken !== undefined) checkInitialToken(options.initialToken);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  ensureServerKey(dataDir);
  const database = options.database ?? { kind: 'sqlite', file: databaseFile(dataDir) };
  const store = openStore(database, options);
  const { db } = store;
  try {
    await checkReachable(db, database);
    const applied = await migrateToLatest(db, undefined, options.onUpgrade);
    if (applied.length > 0) await refreshPlannerStatistics(db);
    const created = await ensureWorkspaceOwner(db, options.initialToken);
    if (created) writeTokenFile(dataDir, created.token);
    return { dataDir, db, store, database, createdToken: created?.token ?? null, close: () => store.close() };
  } catch (error) {
    await store.close();
    throw error;
  }
}
