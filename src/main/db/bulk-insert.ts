import { CompiledQuery, type Insertable } from 'kysely';
import type { Database, Db, Executor } from './database';
import { dialectOf } from './dialect';
import { refreshPlannerStatistics } from './open-database';
import { sqliteUnder } from './sqlite-connection';

export type SqlValue = string | number | bigint | null;

/**
 * A multi-row INSERT compiled once by Kysely and run for every full chunk of rows with flattened
 * parameters. The SQL stays Kysely's (portable); its execution is the dialect's: on SQLite a
 * statement prepared once on the raw handle (building a Kysely query per row costs more than
 * SQLite's insert), on PostgreSQL the compiled text sent through the transaction's connection.
 *
 * Values are pushed positionally, in the order of the sample row's keys (`columns`): no object
 * per row on the hot path. `push` returns a promise only when it wrote a chunk and the dialect
 * is asynchronous: await it when there is one, before the next push.
 */
export class BulkInserter<T extends keyof Database & string> {
  readonly columns: readonly string[];
  private readonly chunk: ChunkRunner;
  private readonly single: ChunkRunner;
  private readonly params: SqlValue[];
  private filled = 0;
  /** Rows inserted so far. */
  rows = 0;

  /**
   * `db` is the store opened by openDatabase; `trx` the caller's transaction on it, in which
   * every chunk is written (on SQLite the raw handle's statements are part of it, since the
   * transaction holds the one connection).
   */
  constructor(
    db: Db,
    trx: Executor,
    table: T,
    sample: Insertable<Database[T]>,
    readonly chunkRows: number,
  ) {
    this.columns = Object.keys(sample);
    const compile = (rows: number): ChunkRunner => {
      // The generic table name defeats Kysely's row typing; the sample row is typed at the call site.
      const values = Array.from({ length: rows }, () => sample) as never;
      const query = db.insertInto(table).values(values).compile();
      if (query.parameters.length !== rows * this.columns.length) {
        throw new Error(`unexpected parameter count in the compiled insert into ${table}`);
      }
      if (dialectOf(db) === 'sqlite') {
        const statement = sqliteUnder(db).prepare<[SqlValue[]]>(query.sql);
        return (params) => void statement.run(params);
      }
      // pg reads the parameters when it sends the query, after the next pushes: give it a copy.
      return (params) => trx.executeQuery(CompiledQuery.raw(query.sql, params.slice())).then(() => undefined);
    };
    this.chunk = compile(chunkRows);
    this.single = compile(1);
    this.params = new Array<SqlValue>(chunkRows * this.columns.length).fill(null);
  }

  /** Appends one row's values in `columns` order; a full chunk is inserted at once. */
  push(...values: SqlValue[]): Promise<void> | undefined {
    const params = this.params;
    let at = this.filled;
    for (let i = 0; i < values.length; i++) params[at++] = values[i]!;
    this.filled = at;
    if (at !== params.length) return undefined;
    this.rows += this.chunkRows;
    this.filled = 0;
    return this.chunk(params) ?? undefined;
  }

  /** Inserts the rows of a partial chunk one by one: at most chunkRows − 1 of them. */
  async flush(): Promise<void> {
    const width = this.columns.length;
    for (let offset = 0; offset < this.filled; offset += width) {
      await this.single(this.params.slice(offset, offset + width));
      this.rows += 1;
    }
    this.filled = 0;
  }
}

type ChunkRunner = (params: SqlValue[]) => Promise<void> | void;

/**
 * During a bulk load, durability is worth little (a crash means rerunning the demo) and, on
 * SQLite, a large page cache keeps the indexes' hot pages in memory. Returns the function that
 * restores the previous settings, after refreshing the planner's statistics, which a bulk load
 * leaves stale. On PostgreSQL the settings are per connection, so the load's transactions relax
 * themselves (relaxTransaction); only the statistics are left to do.
 */
export function relaxForBulkLoad(db: Db, cacheKib = 512 * 1024): () => Promise<void> {
  if (dialectOf(db) === 'postgres') return () => refreshPlannerStatistics(db);
  const sqlite = sqliteUnder(db);
  const synchronous = sqlite.pragma('synchronous', { simple: true }) as number;
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma(`cache_size = ${-Math.abs(Math.trunc(cacheKib))}`);
  return async () => {
    sqlite.exec('ANALYZE');
    sqlite.pragma(`synchronous = ${Math.trunc(synchronous)}`);
    sqlite.pragma(`cache_size = ${Math.trunc(cacheSize)}`);
  };
}

/** PostgreSQL: a bulk load's transaction does not wait for its commit to reach the disk. */
export async function relaxTransaction(trx: Executor): Promise<void> {
  if (dialectOf(trx) === 'postgres') await trx.executeQuery(CompiledQuery.raw('SET LOCAL synchronous_commit = off'));
}

/** Typed samples for the compiled inserts; their key order is the order values are pushed in. */
export const SCAN_SAMPLE = {
  id: '',
  created_at: 0,
  tool: '',
  action: '',
  tokens: 0,
  status: 'completed',
  source: 'submitted',
  organization_id: null,
  submitted_by: '',
  token_breakdown: '',
  request_count: 0,
  violation_count: 0,
  worst_severity: 0,
} as const;
export const ENTRY_SAMPLE = { scan_id: '', seq: 0, timestamp: 0, action: '', tokens: 0 } as const;
export const VIOLATION_SAMPLE = {
  id: '',
  scan_id: '',
  seq: 0,
  rule: '',
  severity: 'low',
  message: '',
  timeline_index: null,
} as const;
