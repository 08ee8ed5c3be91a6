import { sql } from 'kysely';
import { BulkInserter, relaxTransaction, type SqlValue } from './bulk-insert';
import { resumeChangeSequence } from './change-sequence';
import type { Database, Db, Executor } from './database';
import { dialectOf } from './dialect';
import { refreshPlannerStatistics } from './open-database';
import { withRollbackJournal } from './sqlite/journal-switches';
import { inTransaction } from './transaction';

/**
 * What a store copy carries, parents before children, each with its primary key (the order it is
 * read in, a keyset page at a time). Rollups are not copied: the target's triggers rebuild them
 * from the rows, so they cannot disagree. Browser sessions are not either: they are bound to the
 * port of the server that made them, and a browser signs in again with its token link. Nor the
 * change feed's bucket sets: a copy has a sequence of its own, so no cursor of the original holds.
 */
const TABLES: readonly { table: keyof Database & string; key: readonly string[] }[] = [
  { table: 'users', key: ['id'] },
  { table: 'tokens', key: ['id'] },
  { table: 'remotes', key: ['id'] },
  { table: 'organizations', key: ['id'] },
  { table: 'memberships', key: ['organization_id', 'user_id'] },
  { table: 'teams', key: ['id'] },
  { table: 'team_members', key: ['team_id', 'user_id'] },
  { table: 'policies', key: ['organization_id'] },
  { table: 'scans', key: ['id'] },
  { table: 'timelines', key: ['id'] },
  { table: 'timeline_entries', key: ['timeline_id', 'seq'] },
  { table: 'timeline_grids', key: ['scan_id'] },
  { table: 'timeline_cells', key: ['scan_id', 'level', 'cell'] },
  { table: 'violations', key: ['id'] },
  { table: 'submit_keys', key: ['user_id', 'key'] },
  { table: 'sync_pushes', key: ['remote_id', 'scan_id'] },
];

const PAGE_ROWS = 5000;
const INSERT_ROWS = 100;

export class StoreCopyError extends Error {
  override readonly name = 'StoreCopyError';
}

export interface CopySummary {
  rows: Record<string, number>;
  total: number;
}

/** Rows per copied table in `db`, and their sum: the size of the copy, for its progress. */
export async function countRows(db: Db): Promise<CopySummary> {
  const rows: Record<string, number> = {};
  for (const { table } of TABLES) {
    const counted = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
    rows[table] = Number(counted.rows[0]?.n ?? 0);
  }
  return { rows, total: Object.values(rows).reduce((sum, n) => sum + n, 0) };
}

/**
 * Copies every user, token, organization, membership, team, policy, scan, timeline and
 * violation of `from` into `to`, in one transaction on `to`: all or nothing. Both stores are
 * migrated to the same schema first (the caller's job); `to` must hold no users at all, since
 * merging two workspaces would give one of them a second owner. `onRows` hears of every page.
 */
export async function copyStore(from: Db, to: Db, onRows?: (rows: number) => void): Promise<CopySummary> {
  if (await to.selectFrom('users').select('id').limit(1).executeTakeFirst()) {
    throw new StoreCopyError('the target store is not empty; copy into a new data directory or an empty database');
  }
  // A new SQLite target is the copy's alone: one write per page instead of the WAL's two.
  const summary = await withRollbackJournal(to, () => copyTables(from, to, onRows));
  await refreshPlannerStatistics(to);
  return summary;
}

const copyTables = (from: Db, to: Db, onRows?: (rows: number) => void): Promise<CopySummary> =>
  inTransaction(
    to,
    async (trx) => {
      await relaxTransaction(trx);
      const rows: Record<string, number> = {};
      for (const { table, key } of TABLES) {
        let inserter: BulkInserter<typeof table> | undefined;
        let copied = 0;
        for await (const page of keysetPages(from, table, key)) {
          inserter ??= new BulkInserter(to, trx, table, page[0] as never, INSERT_ROWS);
          const columns = inserter.columns;
          // Any table's rows, read back as they were written: typed per table only at compile time.
          const push = inserter.push.bind(inserter) as (...values: SqlValue[]) => Promise<void> | undefined;
          for (const row of page) {
            const written = push(...columns.map((column) => (row as Record<string, SqlValue>)[column]!));
            if (written) await written;
          }
          copied += page.length;
          onRows?.(page.length);
        }
        await inserter?.flush();
        rows[table] = copied;
      }
      await resumeIdentities(trx);
      await resumeChangeSequence(trx);
      return { rows, total: Object.values(rows).reduce((sum, n) => sum + n, 0) };
    },
    { isolation: 'read committed' },
  );

/**
 * Copied rows keep their ids, which PostgreSQL's identity sequences did not hand out: the next
 * id taken must come after the largest copied one. SQLite takes the largest id plus one anyway.
 */
async function resumeIdentities(trx: Executor): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await sql`
    select setval(pg_get_serial_sequence('timelines', 'id'), coalesce(max(id), 0) + 1, false)
    from timelines`.execute(trx);
}

/** Every row of `table` in primary-key order, a page at a time: each page is its own short read. */
async function* keysetPages(
  db: Db,
  table: keyof Database & string,
  key: readonly string[],
): AsyncGenerator<Record<string, unknown>[]> {
  let after: unknown[] | undefined;
  const keyList = sql.join(key.map((column) => sql.ref(column)));
  for (;;) {
    const bound = after ? sql`WHERE (${keyList}) > (${sql.join(after)})` : sql``;
    const page = await sql<Record<string, unknown>>`
      SELECT * FROM ${sql.table(table)} ${bound} ORDER BY ${keyList} LIMIT ${PAGE_ROWS}`.execute(db);
    if (page.rows.length === 0) return;
    yield page.rows;
    const last = page.rows[page.rows.length - 1]!;
    after = key.map((column) => last[column]);
    if (page.rows.length < PAGE_ROWS) return;
  }
}
