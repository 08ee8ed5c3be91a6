import { sql } from 'kysely';
import {
  BulkInserter,
  type Db,
  dialectOf,
  ENTRY_SAMPLE,
  type Executor,
  ReusableQuery,
  TIMELINE_SAMPLE,
  type TimelineEntryRow,
  tupleReader,
} from '../db/index';
import { gridTotals } from './timeline-cells.repository';
import { EMPTY, type Aggregate } from './timeline-grid';

// Every query of `timelines` and `timeline_entries`: what submit, import, demo and export write,
// and what the evidence endpoints read. A scan with entries has a row in `timelines`, whose
// integer id keys its entries (migration 2026_11_25_120000_create_timelines); an entry is
// addressed by (timeline_id, seq), seq following timestamp order (submits sort, imports refuse
// disorder). Readers take the scan id and find its timeline in the same statement.

export type TimelineRow = Omit<TimelineEntryRow, 'timeline_id'>;

/** A timeline row as the export reads it: an array per row costs less than an object. */
export type TimelineTuple = [seq: number, timestamp: number, action: string, tokens: number];

/** An entry as it is given to be stored: its seq is its position. */
export interface TimelineEntryValues {
  timestamp: number;
  action: string;
  tokens: number;
}

/** The scan's timeline id, as a scalar subquery: one unique-index lookup, run once per statement. */
const timelineOf = (db: Executor, scanId: string) =>
  db.selectFrom('timelines').select('timelines.id').where('timelines.scan_id', '=', scanId);

/** Gives the scan a timeline and answers its id. */
export async function createTimeline(db: Executor, scanId: string): Promise<number> {
  const { rows } = await CREATE_TIMELINE.execute(db, [scanId]);
  return Number(rows[0]!.id);
}

const CREATE_TIMELINE = new ReusableQuery((db) => db.insertInto('timelines').values({ scan_id: '' }).returning('id'));
const INSERT_ENTRIES = new ReusableQuery((db, rows: number) =>
  db.insertInto('timeline_entries').values(Array.from({ length: rows }, () => ENTRY_SAMPLE)),
);

/**
 * Rows per multi-row INSERT of a submit. Each row count is a statement of its own, compiled once
 * and kept (INSERT_ENTRIES, and SQLite's statement cache): 64 bounds them to 64 small ones, where
 * 500 let any timeline's last chunk add one of up to 500, the largest holding 2,500 value nodes.
 */
const INSERT_ROWS = 64;

/** Stores a scan's timeline, seq numbered from 0 in the given order; nothing when it is empty. */
export async function insertTimeline(
  db: Executor,
  scanId: string,
  entries: readonly TimelineEntryValues[],
): Promise<void> {
  if (entries.length === 0) return;
  const timelineId = await createTimeline(db, scanId);
  for (let start = 0; start < entries.length; start += INSERT_ROWS) {
    const end = Math.min(start + INSERT_ROWS, entries.length);
    // In ENTRY_SAMPLE's column order.
    const values: (string | number)[] = [];
    for (let seq = start; seq < end; seq++) {
      const { timestamp, action, tokens } = entries[seq]!;
      values.push(timelineId, seq, timestamp, action, tokens);
    }
    await INSERT_ENTRIES.execute(db, values, end - start);
  }
}

/**
 * Ids for `count` new timelines of a bulk load, to push to timelinesInserter with their scans.
 * Call it inside the load's transaction once the transaction has written: on SQLite it then
 * holds the store's one write lock, so the ids after the largest are free until it commits;
 * PostgreSQL takes them from the identity's sequence, which concurrent writers share.
 */
export async function newTimelineIds(trx: Executor, count: number): Promise<number[]> {
  if (count === 0) return [];
  if (dialectOf(trx) === 'postgres') {
    const { rows } = await sql<{ id: number | string }>`
      select nextval(pg_get_serial_sequence('timelines', 'id')) as id from generate_series(1, ${count})`.execute(trx);
    return rows.map((row) => Number(row.id));
  }
  const last = await trx
    .selectFrom('timelines')
    .select((eb) => eb.fn.max<number | null>('id').as('id'))
    .executeTakeFirst();
  const first = Number(last?.id ?? 0) + 1;
  return Array.from({ length: count }, (_, i) => first + i);
}

/** The compile-once multi-row insert of `timelines` rows in bulk loads: id, scan_id. */
export const timelinesInserter = (db: Db, trx: Executor, chunkRows: number) =>
  new BulkInserter(db, trx, 'timelines', TIMELINE_SAMPLE, chunkRows);

/**
 * The compile-once multi-row insert of bulk loads (import, demo), pushed positionally in
 * ENTRY_SAMPLE's key order: timeline_id, seq, timestamp, action, tokens.
 */
export const timelineInserter = (db: Db, trx: Executor, chunkRows: number) =>
  new BulkInserter(db, trx, 'timeline_entries', ENTRY_SAMPLE, chunkRows);

/**
 * A scan's entry count and token sum: from the top cell of its summary pyramid where it has one
 * (a long timeline's totals in one indexed row), else counted.
 */
export async function timelineTotals(db: Executor, scanId: string): Promise<{ count: number; tokens: number }> {
  const summarised = await gridTotals(db, scanId);
  if (summarised) return summarised;
  const row = await db
    .selectFrom('timeline_entries')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number | null>('tokens').as('tokens')])
    .where('timeline_id', '=', timelineOf(db, scanId))
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), tokens: Number(row.tokens ?? 0) };
}

const chunkQuery = (db: Executor, scanId: string, after: number, limit: number) =>
  db
    .selectFrom('timeline_entries')
    .select(['seq', 'timestamp', 'action', 'tokens'])
    .where('timeline_id', '=', timelineOf(db, scanId))
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit);

/**
 * A scan's timeline in order, a chunk at a time (keyset on seq). Each chunk is its own short
 * query, so a slow reader never holds the connection and memory stays flat for any length.
 */
export async function* timelineChunks(db: Executor, scanId: string, chunkSize = 5000): AsyncGenerator<TimelineRow[]> {
  let after = -1;
  for (;;) {
    const rows = await chunkQuery(db, scanId, after, chunkSize).execute();
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.seq;
    if (rows.length < chunkSize) return;
  }
}

/** No seq is below 0, and no other parameter of the chunk query is a negative number. */
const FIRST_AFTER = -1;

/**
 * timelineChunks for the export, which reads every row of long timelines: rows come as arrays
 * from one compiled query (see tupleReader). Same keyset chunks, each its own short read between
 * which other requests run; not for use inside a transaction.
 */
export async function* timelineTupleChunks(db: Db, scanId: string, chunkSize = 5000): AsyncGenerator<TimelineTuple[]> {
  const query = chunkQuery(db, scanId, FIRST_AFTER, chunkSize).compile();
  // Parameters bind by position: find the keyset bound among them once.
  const params = [...query.parameters];
  const afterAt = params.indexOf(FIRST_AFTER);
  if (afterAt === -1 || params.lastIndexOf(FIRST_AFTER) !== afterAt) {
    throw new Error('unexpected parameters in the compiled timeline chunk query');
  }
  const read = tupleReader<TimelineTuple>(db, query.sql);
  for (;;) {
    const rows = await read(params);
    if (rows.length === 0) return;
    yield rows;
    params[afterAt] = rows[rows.length - 1]![0];
    if (rows.length < chunkSize) return;
  }
}

// Seq follows timestamp order within a scan (submit sorts, import refuses disorder), so the
// entries of a time window are one run of seqs, found on the primary key: there is no timestamp
// index (migrations 2026_11_25_000000_rebuild_timeline_entries, …120000_create_timelines).

/** The timestamp of the scan's first (or last) entry: one primary-key lookup at either end. */
const endTimestamp = (db: Executor, scanId: string, end: 'asc' | 'desc') =>
  db
    .selectFrom('timeline_entries')
    .select('timestamp')
    .where('timeline_id', '=', timelineOf(db, scanId))
    .orderBy('seq', end)
    .limit(1)
    .executeTakeFirst();

/** The first and last timestamp of a timeline, or null when it is empty. */
export async function timelineBounds(db: Executor, scanId: string): Promise<{ first: number; last: number } | null> {
  const [first, last] = await Promise.all([endTimestamp(db, scanId, 'asc'), endTimestamp(db, scanId, 'desc')]);
  if (!first || !last) return null;
  return { first: Number(first.timestamp), last: Number(last.timestamp) };
}

/** How many entries the scan has: seqs run from 0 without gaps. */
async function entryCount(db: Executor, scanId: string): Promise<number> {
  const row = await db
    .selectFrom('timeline_entries')
    .select((eb) => eb.fn.max<number | null>('seq').as('last'))
    .where('timeline_id', '=', timelineOf(db, scanId))
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

/**
 * How many of the scan's entries have a timestamp below `bound`: the seq of the first entry at or
 * after it. A binary search over seq in one statement, each step a primary-key lookup, about 20
 * for a million entries.
 */
async function seqBound(db: Executor, scanId: string, bound: number): Promise<number> {
  const before = sql`e.timestamp < ${bound}`;
  const timeline = timelineOf(db, scanId);
  const { rows } = await sql<{ seq: number | string }>`
    with recursive search (lo, hi) as (
      select 0, coalesce((select max(seq) + 1 from timeline_entries where timeline_id = (${timeline})), 0)
      union all
      select
        case when ${before} then (s.lo + s.hi) / 2 + 1 else s.lo end,
        case when ${before} then s.hi else (s.lo + s.hi) / 2 end
      from search s
      join timeline_entries e on e.timeline_id = (${timeline}) and e.seq = (s.lo + s.hi) / 2
      where s.lo < s.hi
    )
    select lo as seq from search where lo >= hi`.execute(db);
  return Number(rows[0]!.seq);
}

/** The seq range [from, to) of the entries with timestamps in [since, until) (either end open). */
async function seqRange(
  db: Executor,
  scanId: string,
  since: number | undefined,
  until: number | undefined,
): Promise<{ from: number; to: number }> {
  const [from, to] = await Promise.all([
    since === undefined ? 0 : seqBound(db, scanId, since),
    until === undefined ? entryCount(db, scanId) : seqBound(db, scanId, until),
  ]);
  return { from, to };
}

/** Count, token sum, min and max of the entries with timestamps in [from, to): a seq range. */
export async function timelineAggregate(db: Executor, scanId: string, from: number, to: number): Promise<Aggregate> {
  const seqs = await seqRange(db, scanId, from, to);
  if (seqs.from >= seqs.to) return EMPTY;
  const row = await db
    .selectFrom('timeline_entries')
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number | null>('tokens').as('tokens'),
      eb.fn.min<number | null>('tokens').as('min'),
      eb.fn.max<number | null>('tokens').as('max'),
    ])
    .where('timeline_id', '=', timelineOf(db, scanId))
    .where('seq', '>=', seqs.from)
    .where('seq', '<', seqs.to)
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  return count === 0 ? EMPTY : { count, tokens: Number(row.tokens), min: Number(row.min), max: Number(row.max) };
}

/**
 * Violations tied to a timeline entry in [since, until), counted per bucket of `width` ms from
 * `origin`: bucket index → count. The query walks the scan's violations and looks each entry up
 * by its key; bounding it by timestamp made SQLite walk the window's entries instead (100 ms on a
 * million), so the window is applied here.
 */
export async function violationBucketCounts(
  db: Executor,
  scanId: string,
  window: { origin: number; width: number; since: number; until: number },
): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('violations')
    .innerJoin('timelines', 'timelines.scan_id', 'violations.scan_id')
    .innerJoin('timeline_entries', (join) =>
      join
        .onRef('timeline_entries.timeline_id', '=', 'timelines.id')
        .onRef('timeline_entries.seq', '=', 'violations.timeline_index'),
    )
    .select('timeline_entries.timestamp')
    .where('violations.scan_id', '=', scanId)
    .execute();
  const counts = new Map<number, number>();
  for (const { timestamp } of rows) {
    const t = Number(timestamp);
    if (t < window.since || t >= window.until) continue;
    const bucket = Math.floor((t - window.origin) / window.width);
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return counts;
}

/** The seq range [first, last] of the entries with since <= timestamp < until, or null when none. */
export async function timelineSeqRange(
  db: Executor,
  scanId: string,
  since: number | undefined,
  until: number | undefined,
): Promise<{ first: number; last: number } | null> {
  const { from, to } = await seqRange(db, scanId, since, until);
  return from < to ? { first: from, last: to - 1 } : null;
}

/** Up to `limit` entries from seq `from` to `to` inclusive, in order. */
export function timelineRowsFrom(
  db: Executor,
  scanId: string,
  from: number,
  to: number,
  limit: number,
): Promise<TimelineRow[]> {
  // One lower bound only: given two, SQLite may seek on the smaller and walk up to the offset.
  return db
    .selectFrom('timeline_entries')
    .select(['seq', 'timestamp', 'action', 'tokens'])
    .where('timeline_id', '=', timelineOf(db, scanId))
    .where('seq', '>=', from)
    .where('seq', '<=', to)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** The entries of one action within seq [from, to]: their count, and one page of them. */
export async function timelineActionPage(
  db: Executor,
  scanId: string,
  range: { first: number; last: number },
  action: string,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: TimelineRow[] }> {
  const matching = db
    .selectFrom('timeline_entries')
    .where('timeline_id', '=', timelineOf(db, scanId))
    .where('seq', '>=', range.first)
    .where('seq', '<=', range.last)
    .where('action', '=', action);
  const counted = await matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const rows =
    page.offset >= total
      ? []
      : await matching
          .select(['seq', 'timestamp', 'action', 'tokens'])
          .orderBy('seq')
          .limit(page.limit)
          .offset(page.offset)
          .execute();
  return { total, rows };
}
