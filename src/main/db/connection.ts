import SQLite from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteDialect, type DialectAdapter } from 'kysely';
import type { Database } from './database';

export interface OpenOptions {
  /** Path of an Electron-ABI build of better-sqlite3; Node uses the package's own binary. */
  nativeBinding?: string;
  busyTimeoutMs?: number;
}

// SQLite does roll back schema changes, but Kysely's adapter says it does not, so its Migrator
// would run migrations outside a transaction and a failing one would leave half a schema behind.
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ScandeskSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** Opens a SQLite file with the pragmas every connection needs. The only place with SQLite-only SQL. */
export function openDatabase(file: string, options: OpenOptions = {}): Kysely<Database> {
  return wrapSqlite(openSqlite(file, options));
}

/**
 * The raw better-sqlite3 handle with the same pragmas as openDatabase: for bulk work (the demo
 * loader) that prepares Kysely-compiled statements once and runs them many times.
 */
export function openSqlite(file: string, options: OpenOptions = {}): SQLite.Database {
  const sqlite = new SQLite(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    sqlite.pragma('journal_mode = WAL');
    // WAL + NORMAL: a process crash loses nothing committed; only a power cut can lose the last commits.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    // The planner needs statistics to walk the scans index in list order instead of merging the
    // visibility OR through two indexes and sorting every visible scan (~340 ms against 0.3 ms per
    // page on a million scans). SQLite's recommended open-time optimize analyzes only tables that
    // never were or have grown a lot since; usually it costs nothing.
    sqlite.pragma('optimize = 0x10002');
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return sqlite;
}

/** Kysely over an open handle; destroying the Kysely instance closes the handle. */
export function wrapSqlite(sqlite: SQLite.Database): Kysely<Database> {
  return new Kysely<Database>({ dialect: new ScandeskSqliteDialect({ database: sqlite }) });
}
