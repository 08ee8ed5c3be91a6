import {
  CompiledQuery,
  SelectQueryNode,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import { quoteIdentifier } from '../quote-identifier';

/** Runs one compiled query on a better-sqlite3 handle, as Kysely's own SQLite connection does. */
function run<R>(db: SqliteDatabase, { sql, parameters }: CompiledQuery): QueryResult<R> {
  const statement = db.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return {
    numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
    insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
    rows: [],
  };
}

/** Waits for the writer: one transaction, write or stream at a time, in arrival order. */
class Mutex {
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;

  get free(): boolean {
    return this.held === undefined;
  }

  async lock(): Promise<void> {
    while (this.held) await this.held;
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  unlock(): void {
    const release = this.release;
    this.held = undefined;
    this.release = undefined;
    release?.();
  }
}

/**
 * A Kysely connection that takes the writer only when it must. A SELECT outside a transaction
 * runs on the writer while no one holds it: it is then in no transaction, so it reads the last
 * committed state, and its page cache is warm. The read-only handle's cache is thrown away by
 * every read that follows a commit, so its reads fetch their pages again (a token lookup 4–6
 * times as long under submits). While someone holds the writer, a SELECT runs on the read-only
 * handle, which in WAL mode sees the last committed state without waiting: a list request answers
 * while a long import holds the writer, and never sees that import's uncommitted rows (as on
 * PostgreSQL, where reads use other pool connections). Anything else (writes, raw SQL, streams,
 * transactions) takes the writer until Kysely releases the connection.
 */
class RoutedConnection implements DatabaseConnection {
  holdsWriter = false;

  constructor(private readonly driver: TwoHandleSqliteDriver) {}

  async takeWriter(): Promise<void> {
    if (this.holdsWriter) return;
    await this.driver.writerLock.lock();
    this.holdsWriter = true;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.holdsWriter && SelectQueryNode.is(query.query)) {
      // Synchronous from here to the rows: nothing can take the writer in between.
      if (this.driver.writerLock.free) return run<R>(this.driver.writer, query);
      const reader = this.driver.reader();
      if (reader) return run<R>(reader, query);
    }
    await this.takeWriter();
    return run<R>(this.driver.writer, query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('only select queries can be streamed');
    // An open iterator makes its handle busy for every other statement: streams keep the writer.
    await this.takeWriter();
    for (const row of this.driver.writer.prepare(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
  }
}

/**
 * Kysely's SqliteDriver with a second, read-only handle on the same file (none for an in-memory
 * database, where every query takes the writer, as before). Transactions begin IMMEDIATE: see
 * sqlite-connection.ts.
 */
export class TwoHandleSqliteDriver implements Driver {
  readonly writerLock = new Mutex();
  private readerHandle: SqliteDatabase | null | undefined;

  constructor(
    readonly writer: SqliteDatabase,
    private readonly openReader: () => SqliteDatabase | null,
    /** Hears when the writer is let go of after use (the WAL checkpointer), and closes first. */
    private readonly writes: { wrote(): void; stop(): Promise<void> } | null = null,
  ) {}

  /** Opened at the first read, so after the startup migrations and statistics. */
  reader(): SqliteDatabase | null {
    if (this.readerHandle === undefined) this.readerHandle = this.openReader();
    return this.readerHandle;
  }

  /** Closes the read-only handle; the next read outside a transaction opens a new one. */
  closeReader(): void {
    this.readerHandle?.close();
    this.readerHandle = undefined;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).takeWriter();
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteIdentifier(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    if (!routed.holdsWriter) return;
    routed.holdsWriter = false;
    this.writerLock.unlock();
    this.writes?.wrote();
  }

  /** Runs `work` holding the writer, as a query would: never inside another request's transaction. */
  async withWriter<T>(work: () => T): Promise<T> {
    await this.writerLock.lock();
    try {
      return work();
    } finally {
      this.writerLock.unlock();
      this.writes?.wrote();
    }
  }

  async destroy(): Promise<void> {
    await this.writes?.stop();
    this.readerHandle?.close();
    this.writer.close();
  }
}
