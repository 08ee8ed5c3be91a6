import { chmodSync, closeSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  sql,
  SqliteAdapter,
  SqliteDialect,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase,
} from 'kysely';
import type { Database } from './database';
import { TwoHandleSqliteDriver } from './sqlite-driver';
import { DEFAULT_AUTOCHECKPOINT_PAGES, WalCheckpointer } from './wal-checkpointer';

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
// the busy timeout does not apply, since waiting cannot help a stale snapshot. The driver takes the
// write lock at BEGIN (IMMEDIATE), which makes SQLite wait (busy_timeout) instead.
class ScandeskSqliteDialect extends SqliteDialect {
  constructor(private readonly driver: TwoHandleSqliteDriver) {
    super({ database: driver.writer });
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  override createDriver(): Driver {
    return this.driver;
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
const handles = new WeakMap<
  Kysely<Database>,
  {
    sqlite: SQLite.Database;
    reader: () => SQLite.Database | null;
    driver: TwoHandleSqliteDriver;
    checkpointer: WalCheckpointer | null;
  }
>();

/** Prepared statements kept per handle, by SQL text: the least recently used go first. */
const STATEMENT_CACHE_SIZE = 256;
const PRAGMA = /^\s*pragma\b/i;

// Kysely prepares every query it runs; preparing cost a sixth of a scan submit's CPU, and the app
// runs the same few hundred statements over and over. better-sqlite3 statements are reusable, and
// a handle runs one query at a time, so a statement is never in use twice at once.
function cachingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      // A pragma's setting takes effect when it is prepared: run again, a cached one does nothing.
      if (PRAGMA.test(sql)) return sqlite.prepare(sql);
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
  const checkpointer = onDisk(sqlite) ? walCheckpointer(sqlite, options) : null;
  const driver = new TwoHandleSqliteDriver(
    cachingStatements(sqlite),
    () => {
      opened = openReader(sqlite, options);
      return opened && cachingStatements(opened);
    },
    checkpointer,
  );
  const reader = (): SQLite.Database | null => (driver.reader() === null ? null : opened);
  const db = new Kysely<Database>({ dialect: new ScandeskSqliteDialect(driver) });
  handles.set(db, { sqlite, reader, driver, checkpointer });
  return db;
}

const onDisk = (sqlite: SQLite.Database): boolean => !sqlite.memory && sqlite.name !== '';

/** Checkpoints the writer's WAL from a worker thread (wal-checkpointer.ts); the writer stops doing it itself. */
function walCheckpointer(sqlite: SQLite.Database, options: OpenOptions): WalCheckpointer {
  sqlite.pragma('wal_autocheckpoint = 0');
  return new WalCheckpointer(sqlite.name, {
    nativeBinding: options.nativeBinding,
    onFailure: () => {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    },
  });
}

/** Starts the WAL checkpointer's worker of a SQLite store now (a server's, at start); nothing elsewhere. */
export function warmWalCheckpointer(db: Kysely<Database>): void {
  handles.get(db)?.checkpointer?.warm();
}

/**
 * Runs `work`, a write of many commits, with the store's WAL checkpoints held until it ends
 * (WalCheckpointer.hold); on PostgreSQL or a store without a checkpointer, just runs it.
 */
export async function withCheckpointsHeld<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  const release = handles.get(db)?.checkpointer?.hold();
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
  return handles.get(db)!.driver.withWriter(() => work(sqlite));
}

/**
 * Runs `work` on the read-only handle under `db`, which sees the last committed state and never
 * waits for the writer (an export reading while an import writes); on an in-memory database,
 * withSqlite. `work` must only read, synchronously, and leave no statement iterating.
 */
export async function withSqliteReader<T>(db: Kysely<Database>, work: (sqlite: SQLite.Database) => T): Promise<T> {
  const reader = handles.get(db)?.reader();
  return reader ? work(reader) : withSqlite(db, work);
}

/**
 * Runs `work` on one connection of `db` that holds the writer throughout, and whose transactions
 * keep their statement and savepoint journals in memory: for many small writes in one
 * transaction (group commit). SQLite keeps such a journal in memory up to 64 KiB, then moves it
 * to a temporary file for the rest of the transaction; a batch of submissions (each a scan row,
 * six index entries, two rollups and a timeline) passes that, and writing the file cost a batch
 * more than its inserts did. Not for large writes: their journals hold every page they change
 * (deleting an organization of 67,000 scans took 385 MB instead of 154).
 */
export async function withJournalsInMemory<T>(
  db: Kysely<Database>,
  work: (connection: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    // The setting is read when a write transaction begins; a statement other than a SELECT takes
    // the writer and keeps it until `connection` is released, so no other transaction sees it.
    await sql`pragma temp_store = memory`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`pragma temp_store = default`.execute(connection);
    }
  });
}

/**
 * Runs `work` (a bulk load into a store no other connection has open) with a rollback journal
 * instead of the WAL: WAL writes every new page twice, into the log at commit and into the file
 * at the checkpoint, and for a load of gigabytes that is a third of its time. Leaving WAL needs
 * the only connection to the file, so the read-only handle is closed first; when another
 * connection (a server on the same data directory) has it open, SQLite says busy and `work` runs
 * in WAL as it is. WAL is back when `work` ends, whatever its outcome.
 */
export async function withRollbackJournal<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  const handle = handles.get(db);
  if (!handle || handle.sqlite.memory) return work();
  handle.driver.closeReader();
  await handle.checkpointer?.stop();
  const { sqlite } = handle;
  const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  let left: boolean;
  try {
    // Busy means another connection: no point waiting for it to go.
    sqlite.pragma('busy_timeout = 0');
    left = sqlite.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    left = false;
  } finally {
    sqlite.pragma(`busy_timeout = ${Math.trunc(timeout)}`);
  }
  try {
    return await work();
  } finally {
    if (left) sqlite.pragma('journal_mode = WAL');
  }
}

/**
 * The raw handle under `db`, for statements run inside a Kysely transaction the caller is in:
 * the transaction holds the one connection, so they are part of it. Anywhere else, withSqlite.
 */
export function sqliteUnder(db: Kysely<Database>): SQLite.Database {
  const handle = handles.get(db);
  if (!handle)
    throw new Error('the raw handle exists only under a database opened by openSqliteDatabase or wrapSqlite');
  return handle.sqlite;
}
