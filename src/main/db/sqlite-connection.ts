import { chmodSync, closeSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
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

// Kysely begins transactions DEFERRED: they start as readers and become writers at their first
// write. In WAL mode, if another connection (the CLI's demo loader, the desktop app, any process
// on the same data directory) committed in between, that upgrade fails at once with SQLITE_BUSY:
// the busy timeout does not apply, since waiting cannot help a stale snapshot. Taking the write
// lock at BEGIN makes SQLite wait (busy_timeout) instead. Within this process all queries share
// one connection and are serialized anyway, so this costs no concurrency.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ScandeskSqliteDialect extends SqliteDialect {
  constructor(private readonly driverConfig: SqliteDialectConfig) {
    super(driverConfig);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.driverConfig);
  }
}

/** Opens a SQLite file with the pragmas every connection needs (SQLite-only SQL lives here and in bulk-insert.ts). */
export function openSqliteDatabase(file: string, options: OpenOptions = {}): Kysely<Database> {
  return wrapSqlite(openSqlite(file, options));
}

/**
 * The store is readable and writable by its owner only, whatever the umask and the directory:
 * SQLite creates a database 0644 and gives its -wal and -shm files the database file's mode, so
 * creating the file 0600 first (and tightening one an older version created) covers all three.
 */
function restrictToOwner(file: string): void {
  if (file === ':memory:' || file === '') return;
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * The raw better-sqlite3 handle with the same pragmas as openSqliteDatabase: for bulk work (the demo
 * loader) that prepares Kysely-compiled statements once and runs them many times.
 */
export function openSqlite(file: string, options: OpenOptions = {}): SQLite.Database {
  restrictToOwner(file);
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

// The handle under each Kysely instance made here, for withSqlite. Weak: a destroyed instance
// that nobody references any more takes its entry with it.
const handles = new WeakMap<Kysely<Database>, SQLite.Database>();

/** Prepared statements kept per handle, by SQL text: the least recently used go first. */
const STATEMENT_CACHE_SIZE = 256;

// Kysely prepares every query it runs; preparing cost a sixth of a scan submit's CPU, and the app
// runs the same few hundred statements over and over. better-sqlite3 statements are reusable, and
// the one connection runs one query at a time, so a statement is never in use twice at once.
function cachingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/** Kysely over an open handle; destroying the Kysely instance closes the handle. */
export function wrapSqlite(sqlite: SQLite.Database): Kysely<Database> {
  const db = new Kysely<Database>({ dialect: new ScandeskSqliteDialect({ database: cachingStatements(sqlite) }) });
  handles.set(db, sqlite);
  return db;
}

/**
 * Runs `work` on the raw better-sqlite3 handle under `db` (made by openSqliteDatabase or wrapSqlite),
 * for hot reads that prepare a Kysely-compiled statement once and run it many times. It holds
 * Kysely's one connection meanwhile, like any query: `work` can never land inside another
 * request's open transaction. Keep `work` short and synchronous; other queries wait for it.
 */
export async function withSqlite<T>(db: Kysely<Database>, work: (sqlite: SQLite.Database) => T): Promise<T> {
  const sqlite = sqliteUnder(db);
  return db.connection().execute(async () => work(sqlite));
}

/**
 * The raw handle under `db`, for statements run inside a Kysely transaction the caller is in:
 * the transaction holds the one connection, so they are part of it. Anywhere else, withSqlite.
 */
export function sqliteUnder(db: Kysely<Database>): SQLite.Database {
  const sqlite = handles.get(db);
  if (!sqlite)
    throw new Error('the raw handle exists only under a database opened by openSqliteDatabase or wrapSqlite');
  return sqlite;
}
