import { CompiledQuery, sql, type Insertable } from 'kysely';
import type SQLite from 'better-sqlite3';
import { CopyChunks } from './postgres/copy-rows';
import type { Database, Db, Executor } from './database';
import { dialectOf } from './dialect';
import { refreshPlannerStatistics } from './open-database';
import { sqliteUnder } from './sqlite/sqlite-connection';

export type SqlValue = string | number | bigint | null;

type TableName = keyof Database & string;
type Row<T extends TableName> = Insertable<Database[T]>;
type ColumnOf<T extends TableName> = keyof Row<T> & string;

declare const COLUMN_ORDER: unique symbol;

/**
 * A row whose keys are the columns a BulkInserter (or a ReusableQuery) writes, and whose type
 * also records their order: `push` takes the values of a row in that order, typed column by
 * column. The values are placeholders (the compiled insert's parameters); only the keys count.
 */
export type RowSample<T extends TableName, C extends readonly ColumnOf<T>[]> = Row<T> & {
  readonly [COLUMN_ORDER]?: C;
};

/** The values of one `T` row in the order of `C`. */
export type RowValues<T extends TableName, C extends readonly ColumnOf<T>[]> = {
  -readonly [I in keyof C]: Row<T>[C[I]];
};

/** The sample row of `table` writing `columns`, in that order (a RowSample). */
export function rowSample<T extends TableName, const C extends readonly ColumnOf<T>[]>(
  _table: T,
  columns: C,
): RowSample<T, C> {
  return Object.fromEntries(columns.map((column) => [column, null])) as RowSample<T, C>;
}

/**
 * Rows pushed positionally (in the order of the sample row's keys, `columns`, typed by the
 * sample's RowSample: no object per row on the hot path) and inserted a chunk at a time, inside
 * the caller's transaction.
 *
 * SQLite: a multi-row INSERT compiled once by Kysely and prepared once on the raw handle
 * (building a Kysely query per row costs more than SQLite's insert). PostgreSQL: one
 * `COPY … FROM STDIN` per chunk on the transaction's connection (postgres/copy-rows.ts), each row
 * written into the chunk's buffer as it is pushed, and one chunk in flight while the next is
 * filled, so building rows overlaps the server's work.
 *
 * `push` returns a promise only when the caller must wait (an asynchronous driver still busy
 * with the previous chunk): await it when there is one, before the next push.
 */
export class BulkInserter<T extends TableName, C extends readonly ColumnOf<T>[] = ColumnOf<T>[]> {
  readonly columns: readonly string[];
  /** SQLite's statements and the chunk's parameters, or PostgreSQL's COPY chunks. */
  private readonly sink: SqliteChunks | CopyChunks;
  /** Rows pushed into the chunk being filled. */
  private filled = 0;
  /** The chunk an asynchronous driver is still writing; its failure surfaces at the next wait. */
  private inFlight: Promise<void> | undefined;
  readonly chunkRows: number;
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
    sample: RowSample<T, C>,
    chunkRows: number,
    /** PostgreSQL: a table of `table`'s columns that the rows go to instead (withLoadTables). */
    into: string = table,
  ) {
    this.columns = Object.keys(sample);
    if (dialectOf(db) === 'postgres') {
      this.chunkRows = Math.max(chunkRows, POSTGRES_CHUNK_ROWS);
      this.sink = new CopyChunks(trx, into, this.columns);
    } else {
      this.chunkRows = chunkRows;
      this.sink = new SqliteChunks(db, table, sample, this.columns.length, chunkRows);
    }
  }

  /** Appends one row's values in `columns` order; a full chunk is inserted at once. */
  push(...values: RowValues<T, C>): Promise<void> | undefined {
    return this.pushRow(values);
  }

  /** As push, the values in an array the caller may fill again for the next row: no array per row. */
  pushRow(values: RowValues<T, C>): Promise<void> | undefined {
    const sink = this.sink;
    if (sink instanceof CopyChunks) {
      const text = sink.text;
      const last = values.length - 1;
      for (let i = 0; i <= last; i++) text.value(values[i] as SqlValue, i === last);
    } else {
      const params = sink.params;
      let at = this.filled * values.length;
      for (let i = 0; i < values.length; i++) params[at++] = values[i] as SqlValue;
    }
    if (++this.filled !== this.chunkRows) return undefined;
    this.rows += this.chunkRows;
    this.filled = 0;
    return this.start(sink instanceof CopyChunks ? sink.send() : sink.run());
  }

  /** Writes the rows of a partial chunk, and waits until every chunk is written. */
  async flush(): Promise<void> {
    const sink = this.sink;
    if (sink instanceof CopyChunks) {
      if (this.filled > 0) await this.start(sink.send());
    } else {
      sink.runSingles(this.filled);
    }
    this.rows += this.filled;
    this.filled = 0;
    const last = this.inFlight;
    this.inFlight = undefined;
    await last;
  }

  /** Keeps `written` in flight and hands back the wait for the one before it, if any. */
  private start(written: Promise<void> | void): Promise<void> | undefined {
    if (!written) return undefined;
    const previous = this.inFlight;
    // Marked handled here; the rejection is still delivered to whoever awaits it next.
    written.catch(() => undefined);
    this.inFlight = written;
    return previous;
  }
}

/** SQLite: a chunk's parameters, and its multi-row INSERT and the single-row one, prepared once. */
class SqliteChunks {
  readonly params: SqlValue[];
  private readonly chunk: SQLite.Statement<[SqlValue[]]>;
  private readonly single: SQLite.Statement<[SqlValue[]]>;

  constructor(
    db: Db,
    table: TableName,
    sample: object,
    private readonly width: number,
    chunkRows: number,
  ) {
    const compile = (rows: number) => {
      // The generic table name defeats Kysely's row typing; the sample row is typed at the call site.
      const values = Array.from({ length: rows }, () => sample) as never;
      const query = db.insertInto(table).values(values).compile();
      if (query.parameters.length !== rows * width) {
        throw new Error(`unexpected parameter count in the compiled insert into ${table}`);
      }
      return sqliteUnder(db).prepare<[SqlValue[]]>(query.sql);
    };
    this.chunk = compile(chunkRows);
    this.single = compile(1);
    this.params = new Array<SqlValue>(chunkRows * width).fill(null);
  }

  run(): void {
    this.chunk.run(this.params);
  }

  /** The first `rows` rows of the parameters, one INSERT each. */
  runSingles(rows: number): void {
    for (let offset = 0; offset < rows * this.width; offset += this.width) {
      this.single.run(this.params.slice(offset, offset + this.width));
    }
  }
}

/** Rows per COPY: large enough that round trips stop mattering, small enough to stream. */
const POSTGRES_CHUNK_ROWS = 5000;

/**
 * The tables the list and the stats read by index-only scans. After a bulk load PostgreSQL's
 * visibility map marks none of their pages all-visible until autovacuum comes by, so those scans
 * fetch every row from the heap as well: at 10,000,000 scans a `since`+`tool` page cost 32 ms of
 * CPU instead of 12, a 90-day tokens request 38 instead of 30. Vacuuming them (7 s for the scans of
 * 10,000,000) sets it; the timeline entries, read by key, are left to autovacuum. The statistics
 * come after, for every table at once (refreshPlannerStatistics).
 */
const LISTED_TABLES = [
  'scans',
  'scan_days',
  'organization_days',
  'organization_hours',
  'scan_hours',
  'violation_days',
  'scan_counts',
  'flagged_scan_days',
  'flagged_organization_days',
  'flagged_scan_hours',
];

/**
 * During a bulk load, durability is worth little (a crash means rerunning the demo) and, on
 * SQLite, a large page cache keeps the indexes' hot pages in memory. Returns the function that
 * restores the previous settings, after refreshing the planner's statistics, which a bulk load
 * leaves stale. On PostgreSQL the settings are per connection, so the load's transactions relax
 * themselves (relaxTransaction); what is left to do is the vacuum of LISTED_TABLES and the statistics.
 */
export function relaxForBulkLoad(db: Db, cacheKib = 512 * 1024): () => Promise<void> {
  if (dialectOf(db) === 'postgres') {
    return async () => {
      await db.executeQuery(CompiledQuery.raw(`VACUUM ${LISTED_TABLES.join(', ')}`));
      await refreshPlannerStatistics(db);
    };
  }
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

/** Samples for the compiled inserts; their column order is the order values are pushed in. */
/** The columns every stored scan fills, in push order; an import's sample adds its own after them. */
export const SCAN_SAMPLE_COLUMNS = [
  'id',
  'created_at',
  'tool',
  'action',
  'tokens',
  'status',
  'source',
  'organization_id',
  'submitted_by',
  'token_breakdown',
  'request_count',
  'violation_count',
  'worst_severity',
  'change_seq',
] as const;
export const SCAN_SAMPLE = rowSample('scans', SCAN_SAMPLE_COLUMNS);
export const TIMELINE_SAMPLE = rowSample('timelines', ['id', 'scan_id']);
export const ENTRY_SAMPLE = rowSample('timeline_entries', ['timeline_id', 'seq', 'timestamp', 'action', 'tokens']);
export const VIOLATION_SAMPLE = rowSample('violations', [
  'id',
  'scan_id',
  'seq',
  'rule',
  'severity',
  'message',
  'timeline_index',
]);

/**
 * Runs a bulk load inside the caller's transaction `trx` with `table`'s secondary indexes
 * dropped, and creates them again from the DDL the store holds (the migrations' own) once it is
 * done: one sorted build each instead of a million random inserts into each (the demo on SQLite:
 * 7.3 → 5.5 s for 100,000 scans). Only plain indexes go; unique ones (constraints) and triggers
 * stay, so every rule and rollup holds throughout. In one transaction, a failed load rolls the
 * drop back with it. On SQLite other connections see the indexes before and after, never
 * without; on PostgreSQL the drop locks the table until the transaction ends, readers too, so
 * only a load into a table nobody else uses yet may run in it (withoutForeignKeys says the same).
 */
export async function withoutSecondaryIndexes<T>(
  trx: Executor,
  table: keyof Database & string,
  work: () => Promise<T>,
): Promise<T> {
  const { rows } =
    dialectOf(trx) === 'postgres'
      ? await sql<{ name: string; sql: string }>`
          select c.relname as name, pg_get_indexdef(i.indexrelid) as sql
          from pg_index i join pg_class c on c.oid = i.indexrelid
          where i.indrelid = ${table}::regclass and not i.indisunique and not i.indisprimary
            and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`.execute(trx)
      : await sql<{ name: string; sql: string }>`
          select name, sql from sqlite_master
          where type = 'index' and tbl_name = ${table} and sql is not null and sql not like 'CREATE UNIQUE%'`.execute(
          trx,
        );
  for (const index of rows) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  const result = await work();
  for (const index of rows) await sql.raw(index.sql).execute(trx);
  return result;
}

/**
 * PostgreSQL: runs a bulk load inside the caller's transaction `trx` with the foreign keys of
 * `tables` dropped, and adds them again once it is done, each checked by one join over the
 * loaded rows instead of a query per row; a broken reference fails the transaction, so the load
 * stores nothing, as a row-by-row check would have. The drop locks the tables until the
 * transaction ends. SQLite checks its keys in process, cheaply: `work` runs as it is.
 */
export async function withoutForeignKeys<T>(
  trx: Executor,
  tables: readonly (keyof Database & string)[],
  work: () => Promise<T>,
): Promise<T> {
  if (dialectOf(trx) !== 'postgres') return work();
  const keys: { table: string; name: string; definition: string }[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ name: string; definition: string }>`
      select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where contype = 'f' and conrelid = ${table}::regclass order by conname`.execute(trx);
    for (const row of rows) keys.push({ table, ...row });
  }
  for (const key of keys) await sql`alter table ${sql.id(key.table)} drop constraint ${sql.id(key.name)}`.execute(trx);
  const result = await work();
  for (const key of keys) {
    await sql`alter table ${sql.id(key.table)} add constraint ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(
      trx,
    );
  }
  return result;
}

/**
 * PostgreSQL: runs a bulk load inside the caller's transaction `trx` whose rows for `tables` go to
 * temporary tables of the same columns (`work` is given their names, for BulkInserter's `into`),
 * then moves each into its table with one `INSERT … SELECT`, in the order given: the statement
 * triggers (the day and count rollups) then aggregate every row at once, where a statement per
 * chunk wrote each rollup row again for every chunk that touched it. Every constraint and
 * trigger of the tables holds as for any insert. SQLite: the rows go to the tables themselves.
 */
export async function withLoadTables<T, N extends keyof Database & string>(
  trx: Executor,
  tables: readonly N[],
  work: (into: Record<N, string>) => Promise<T>,
): Promise<T> {
  const into = {} as Record<N, string>;
  for (const table of tables) into[table] = table;
  if (dialectOf(trx) !== 'postgres') return work(into);
  for (const table of tables) {
    into[table] = `load_${table}`;
    await sql`create temporary table ${sql.id(into[table])} (like ${sql.id(table)} including defaults) on commit drop`.execute(
      trx,
    );
  }
  const result = await work(into);
  for (const table of tables) {
    await sql`insert into ${sql.id(table)} select * from ${sql.id(into[table])}`.execute(trx);
    await sql`drop table ${sql.id(into[table])}`.execute(trx);
  }
  return result;
}
