import type pg from 'pg';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { Executor } from '../database';
import { quoteIdentifier } from '../quote-identifier';
import { isLostStatement, StatementNames } from './statement-names';

/** How many statement texts each connection keeps prepared (statement-names.ts). */
const NAMED_STATEMENTS = 300;

/**
 * A pooled pg client as Kysely's connection. Kysely's own PostgresDriver keeps the client
 * private; this one hands it to what Kysely does not do (COPY, rows as arrays) on the very
 * connection of the caller's transaction.
 */
export class PoolConnection implements DatabaseConnection {
  /** Between the driver's BEGIN and its COMMIT or ROLLBACK. */
  inTransaction = false;

  constructor(
    readonly client: pg.PoolClient,
    private readonly names: StatementNames,
    private readonly onNamesOff: ((error: Error) => void) | undefined,
  ) {}

  private turnOffNames(error: unknown): void {
    if (this.names.isOff) return;
    this.names.turnOff();
    this.onNamesOff?.(error instanceof Error ? error : new Error(String(error)));
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const values = [...compiledQuery.parameters];
    const name = this.names.nameOf(compiledQuery.sql, values.length);
    const { command, rowCount, rows } = await this.client
      .query<R & pg.QueryResultRow>(
        name === undefined ? { text: compiledQuery.sql, values } : { name, text: compiledQuery.sql, values },
      )
      .catch((error: unknown) => {
        if (name === undefined || !isLostStatement(error)) throw error;
        // The statement failed before it ran. Outside a transaction it runs again unnamed; inside
        // one the transaction is lost, and only the statements after it run unnamed.
        this.turnOffNames(error);
        if (this.inTransaction) throw error;
        return this.client.query<R & pg.QueryResultRow>({ text: compiledQuery.sql, values });
      });
    const changed = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return { numAffectedRows: changed ? BigInt(rowCount ?? 0) : undefined, rows: rows ?? [] };
  }

  // eslint-disable-next-line require-yield -- no caller streams; Kysely's interface asks for it
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on this pool');
  }
}

/** Kysely's PostgresDriver over one pool, its connections exposing their pg client. */
export class PoolDriver implements Driver {
  private readonly connections = new WeakMap<pg.PoolClient, PoolConnection>();
  private readonly names = new StatementNames(NAMED_STATEMENTS);
  private ended = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onNamesOff?: (error: Error) => void,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    if (this.ended) {
      client.release();
      throw new Error('driver has already been destroyed');
    }
    let connection = this.connections.get(client);
    if (!connection) {
      connection = new PoolConnection(client, this.names, this.onNamesOff);
      this.connections.set(client, connection);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let begin = 'start transaction';
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) begin += ` ${settings.accessMode}`;
    await connection.executeQuery(CompiledQuery.raw(begin));
    (connection as PoolConnection).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as PoolConnection).inTransaction = false;
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as PoolConnection).inTransaction = false;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await runSavepointCommand(connection, `savepoint`, name);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await runSavepointCommand(connection, `rollback to`, name);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await runSavepointCommand(connection, `release`, name);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PoolConnection).client.release();
  }

  async destroy(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.pool.end();
  }
}

async function runSavepointCommand(connection: DatabaseConnection, command: string, name: string): Promise<void> {
  await connection.executeQuery(CompiledQuery.raw(`${command} ${quoteIdentifier(name)}`));
}

/**
 * Runs `work` on the pg client under `executor`: a transaction's own connection (after the
 * statements it has queued), or one taken from the pool for the time of `work`.
 */
export function withPgClient<T>(executor: Executor, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return executor.getExecutor().provideConnection((connection) => {
    if (!(connection instanceof PoolConnection)) throw new Error('not a store opened by openPostgres');
    return work(connection.client);
  });
}
