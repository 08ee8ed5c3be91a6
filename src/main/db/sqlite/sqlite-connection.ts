import { chmodSync, closeSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteDialect, type DialectAdapter, type Driver } from 'kysely';
import type { Database, Executor } from '../database';
import type { Store, StoreSlot } from '../store';
import { TwoHandleSqliteDriver } from './sqlite-driver';
import { DEFAULT_AUTOCHECKPOINT_PAGES, JOURNAL_SIZE_LIMIT_BYTES } from './checkpoint-decision';
import { cachingStatements } from './statement-cache';
import { WalCheckpointer } from './wal-checkpointer';

export interface OpenOptions {
  /** Path of an Electron-ABI build of better-sqlite3; Node uses the package's own binary. */
  nativeBinding?: string;
  busyTimeoutMs?: number;
}

/**
 * What sits under one Kysely instance made here: the writer's raw handle, the driver that owns the
 * read-only one, and the WAL checkpointer. The escape hatches below (withSqlite, withSqliteReader,
 * sqliteUnder, withRollbackJournal, withCheckpointsHeld) reach it through the instance's adapter.
 */
export interface SqliteEngine {
  readonly sqlite: SQLite.Database;
  reader(): SQLite.Database | null;
  readonly driver: TwoHandleSqliteDriver;
  readonly checkpointer: WalCheckpointer | null;
}

// SQLite does roll back schema changes, but Kysely's adapter says it does not, so its Migrator
// would run migrations outside a transaction and a failing one would leave half a schema behind.
// The adapter is also what every Kysely instance and transaction made from it share, so it
// carries the engine: no module-level map from instances to handles.
class ScandeskSqliteAdapter extends SqliteAdapter implements StoreSlot {
  store: Store | undefined = undefined;

  constructor(readonly engine: SqliteEngine) {
    super();
  }

  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * The engine under `db`, if it was opened here. Not under a transaction, which shares the
 * adapter: raw work there would wait for the writer its own transaction holds.
 */
export function sqliteEngineOf(db: Executor): SqliteEngine | undefined {
  if (db.isTransaction) return undefined;
  const adapter = db.getExecutor().adapter;
  return adapter instanceof ScandeskSqliteAdapter ? adapter.engine : undefined;
}

// Kysely begins transactions DEFERRED: they start as readers and become writers at their first
// write. In WAL mode, if another connection (the CLI's demo loader, the desktop app, any process
// on the same data directory) committed in between, that upgrade fails at once with SQLITE_BUSY:
// the busy timeout does not apply, since waiting cannot help a stale snapshot. The driver takes the
// write lock at BEGIN (IMMEDIATE), which makes SQLite wait (busy_timeout) instead.
class ScandeskSqliteDialect extends SqliteDialect {
  constructor(private readonly engine: SqliteEngine) {
    super({ database: engine.driver.writer });
  }

  override createAdapter(): DialectAdapter {
    return new ScandeskSqliteAdapter(this.engine);
  }

  override createDriver(): Driver {
    return this.engine.driver;
  }
}

/** Opens a SQLite file with the pragmas every connection needs (SQLite-only SQL lives here and in bulk-insert.ts). */
export function openSqliteDatabase(file: string, options: OpenOptions = {}): Kysely<Database> {
  return wrapSqlite(openSqlite(file, options), options);
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
    // When the log starts over, its file is cut back to this size (checkpoint-decision.ts).
    sqlite.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
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

/** A read-only handle on the file under `writer`, or null for an in-memory database. */
function openReader(writer: SQLite.Database, options: OpenOptions): SQLite.Database | null {
  if (!onDisk(writer)) return null;
  const reader = new SQLite(writer.name, {
    readonly: true,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  reader.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  return reader;
}

/**
 * Kysely over an open handle (the writer) and a read-only one on the same file, which it opens
 * itself (TwoHandleSqliteDriver); destroying the Kysely instance closes both.
 */
export function wrapSqlite(sqlite: SQLite.Database, options: OpenOptions = {}): Kysely<Database> {
  // The driver owns the reader's lifetime; `opened` is the raw handle under its current one.
  let opened: SQLite.Database | null = null;
  const checkpointer = onDisk(sqlite)
    ? walCheckpointer(sqlite, options, () => {
        // The worker wrote statistics: the writer loads them now, the reader when it opens again.
        sqlite.exec('analyze sqlite_schema');
        driver.closeReader();
      })
    : null;
  const driver = new TwoHandleSqliteDriver(
    cachingStatements(sqlite),
    () => {
      opened = openReader(sqlite, options);
      return opened && cachingStatements(opened);
    },
    checkpointer,
  );
  checkpointer?.useWriterLock(driver.writerLock);
  const reader = (): SQLite.Database | null => (driver.reader() === null ? null : opened);
  return new Kysely<Database>({ dialect: new ScandeskSqliteDialect({ sqlite, reader, driver, checkpointer }) });
}

const onDisk = (sqlite: SQLite.Database): boolean => !sqlite.memory && sqlite.name !== '';

/** Checkpoints the writer's WAL from a worker thread (wal-checkpointer.ts); the writer stops doing it itself. */
function walCheckpointer(sqlite: SQLite.Database, options: OpenOptions, onStatistics: () => void): WalCheckpointer {
  sqlite.pragma('wal_autocheckpoint = 0');
  return new WalCheckpointer(sqlite.name, {
    nativeBinding: options.nativeBinding,
    onStatistics,
    onFailure: () => {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    },
  });
}

/** Starts the WAL checkpointer's worker of a SQLite store now (a server's, at start); nothing elsewhere. */
export function warmWalCheckpointer(db: Kysely<Database>): void {
  sqliteEngineOf(db)?.checkpointer?.warm();
}

/**
 * Runs `work`, a write of many commits, with the store's WAL checkpoints held until it ends
 * (WalCheckpointer.hold); on PostgreSQL or a store without a checkpointer, just runs it.
 */
export async function withCheckpointsHeld<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  const release = sqliteEngineOf(db)?.checkpointer?.hold();
  try {
    return await work();
  } finally {
    release?.();
  }
}

/**
 * Runs `work` on the raw better-sqlite3 handle under `db` (made by openSqliteDatabase or wrapSqlite),
 * for hot work that prepares a Kysely-compiled statement once and runs it many times. It holds
 * the writer meanwhile, like any write: `work` can never land inside another request's open
 * transaction. Keep `work` short and synchronous; other writers wait for it.
 */
export async function withSqlite<T>(db: Kysely<Database>, work: (sqlite: SQLite.Database) => T): Promise<T> {
  const sqlite = sqliteUnder(db);
  return sqliteEngineOf(db)!.driver.withWriter(() => work(sqlite));
}

/**
 * Runs `work` on the read-only handle under `db`, which sees the last committed state and never
 * waits for the writer (an export reading while an import writes); on an in-memory database,
 * withSqlite. `work` must only read, synchronously, and leave no statement iterating.
 */
export async function withSqliteReader<T>(db: Kysely<Database>, work: (sqlite: SQLite.Database) => T): Promise<T> {
  const reader = sqliteEngineOf(db)?.reader();
  return reader ? work(reader) : withSqlite(db, work);
}

/**
 * The raw handle under `db`, for statements run inside a Kysely transaction the caller is in:
 * the transaction holds the one connection, so they are part of it. Anywhere else, withSqlite.
 */
export function sqliteUnder(db: Kysely<Database>): SQLite.Database {
  const handle = sqliteEngineOf(db);
  if (!handle)
    throw new Error('the raw handle exists only under a database opened by openSqliteDatabase or wrapSqlite');
  return handle.sqlite;
}
