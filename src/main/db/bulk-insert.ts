import type SQLite from 'better-sqlite3';
import type { Insertable } from 'kysely';
import type { Database, Db } from './database';

export type SqlValue = string | number | bigint | null;

/**
 * A multi-row INSERT compiled once by Kysely and prepared once by better-sqlite3, then run for
 * every full chunk of rows with flattened parameters. The SQL stays Kysely's (portable); only
 * its execution is SQLite's. Building a Kysely query per row costs more than SQLite's insert.
 *
 * Values are pushed positionally, in the order of the sample row's keys (`columns`): no object
 * per row on the hot path.
 */
export class BulkInserter<T extends keyof Database & string> {
  readonly columns: readonly string[];
  private readonly chunk: SQLite.Statement<[SqlValue[]]>;
  private readonly single: SQLite.Statement<[SqlValue[]]>;
  private readonly params: SqlValue[];
  private filled = 0;
  /** Rows inserted so far. */
  rows = 0;

  constructor(
    sqlite: SQLite.Database,
    db: Db,
    table: T,
    sample: Insertable<Database[T]>,
    readonly chunkRows: number,
  ) {
    this.columns = Object.keys(sample);
    const compile = (rows: number): SQLite.Statement<[SqlValue[]]> => {
      // The generic table name defeats Kysely's row typing; the sample row is typed at the call site.
      const values = Array.from({ length: rows }, () => sample) as never;
      const query = db.insertInto(table).values(values).compile();
      if (query.parameters.length !== rows * this.columns.length) {
        throw new Error(`unexpected parameter count in the compiled insert into ${table}`);
      }
      return sqlite.prepare<[SqlValue[]]>(query.sql);
    };
    this.chunk = compile(chunkRows);
    this.single = compile(1);
    this.params = new Array<SqlValue>(chunkRows * this.columns.length).fill(null);
  }

  /** Appends one row's values in `columns` order; a full chunk is inserted at once. */
  push(...values: SqlValue[]): void {
    const params = this.params;
    let at = this.filled;
    for (let i = 0; i < values.length; i++) params[at++] = values[i]!;
    this.filled = at;
    if (at === params.length) {
      this.chunk.run(params);
      this.rows += this.chunkRows;
      this.filled = 0;
    }
  }

  /** Inserts the rows of a partial chunk one by one: at most chunkRows − 1 of them. */
  flush(): void {
    const width = this.columns.length;
    for (let offset = 0; offset < this.filled; offset += width) {
      this.single.run(this.params.slice(offset, offset + width));
      this.rows += 1;
    }
    this.filled = 0;
  }
}

/**
 * During a bulk load, durability is worth little (a crash means rerunning the demo) and a
 * large page cache keeps the indexes' hot pages in memory. Returns the function that restores
 * the previous settings, after refreshing the planner's statistics.
 */
export function relaxForBulkLoad(sqlite: SQLite.Database, cacheKib = 512 * 1024): () => void {
  const synchronous = sqlite.pragma('synchronous', { simple: true }) as number;
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma(`cache_size = ${-Math.abs(Math.trunc(cacheKib))}`);
  return () => {
    // Fresh statistics: the planner picks list query plans by them (see openSqlite), and the next
    // start would otherwise pay for the analysis instead.
    sqlite.exec('ANALYZE');
    sqlite.pragma(`synchronous = ${Math.trunc(synchronous)}`);
    sqlite.pragma(`cache_size = ${Math.trunc(cacheSize)}`);
  };
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
