import { sql } from 'kysely';
import { BulkInserter, ENTRY_SAMPLE } from '../db/bulk-insert';
import type { Db, Executor } from '../db/database';
import { tupleReader } from '../db/tuple-reader';
import type { NewTimelineEntry, TimelineEntryRow } from '../db/tables/timeline-entry.table';
import { GridRecorder, gridTotals } from './timeline-cells.repository';
import { EMPTY, type Aggregate } from './timeline-grid';

// Every query of `timeline_entries`: what submit, import, demo and export write, and what the
// evidence endpoints read. A timeline is addressed by (scan_id, seq), seq following timestamp
// order (submits sort, imports refuse disorder).

export type TimelineRow = Omit<TimelineEntryRow, 'scan_id'>;

/** A timeline row as the export reads it: an array per row costs less than an object. */
export type TimelineTuple = [seq: number, timestamp: number, action: string, tokens: number];

/** Rows per multi-row INSERT of a submit: well under every dialect's bound-parameter limit. */
const INSERT_ROWS = 500;

export async function insertTimelineEntries(db: Executor, rows: readonly NewTimelineEntry[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_ROWS) {
    await db
      .insertInto('timeline_entries')
      .values(rows.slice(start, start + INSERT_ROWS))
      .execute();
  }
}

/**
 * The compile-once multi-row insert of bulk loads (import, demo), pushed positionally in
 * ENTRY_SAMPLE's key order: scan_id, seq, timestamp, action, tokens.
 */
export const timelineInserter = (db: Db, trx: Executor, chunkRows: number): BulkInserter<'timeline_entries'> =>
  new BulkInserter(db, trx, 'timeline_entries', ENTRY_SAMPLE, chunkRows);

/** Rows per INSERT of an import, as the demo loader uses. */
const WRITER_ROWS = 100;

/**
 * Appends timelines through one timelineInserter per import: building the query per chunk cost
 * more than SQLite's insert, and preparing it per chunk left ~0.5 KB of native statement memory
 * per row that only a garbage collection frees, which the little JS garbage of an import rarely
 * triggers.
 *
 * Create and use it only inside the import's transaction `trx`: its rows are part of it.
 */
export class TimelineWriter {
  private readonly rows: BulkInserter<'timeline_entries'>;
  private readonly grid = new GridRecorder();
  private scanId = '';
  private seq = 0;

  constructor(
    private readonly db: Db,
    private readonly trx: Executor,
  ) {
    this.rows = timelineInserter(db, trx, WRITER_ROWS);
  }

  /** Starts the timeline of another scan, from seq 0. */
  begin(scanId: string): void {
    this.scanId = scanId;
    this.seq = 0;
  }

  async write(entries: readonly { timestamp: number; action: string; tokens: number }[]): Promise<void> {
    for (const entry of entries) {
      const written = this.rows.push(this.scanId, this.seq++, entry.timestamp, entry.action, entry.tokens);
      this.grid.push(entry.timestamp, entry.tokens);
      if (written) await written;
    }
  }

  /** Writes the scan's last, partial chunk, and the summary of a long timeline. */
  async end(): Promise<void> {
    await this.rows.flush();
    await this.grid.store(this.db, this.trx, this.scanId);
  }
}

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
    .where('scan_id', '=', scanId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), tokens: Number(row.tokens ?? 0) };
}

const chunkQuery = (db: Executor, scanId: string, after: number, limit: number) =>
  db
    .selectFrom('timeline_entries')
    .select(['seq', 'timestamp', 'action', 'tokens'])
    .where('scan_id', '=', scanId)
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
// index (migration 2026_11_25_000000_rebuild_timeline_entries).

/** The timestamp of the scan's first (or last) entry: one primary-key lookup at either end. */
const endTimestamp = (db: Executor, scanId: string, end: 'asc' | 'desc') =>
  db
    .selectFrom('timeline_entries')
    .select('timestamp')
    .where('scan_id', '=', scanId)
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
    .where('scan_id', '=', scanId)
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
  const { rows } = await sql<{ seq: number | string }>`
    with recursive search (lo, hi) as (
      select 0, coalesce((select max(seq) + 1 from timeline_entries where scan_id = ${scanId}), 0)
      union all
      select
        case when ${before} then (s.lo + s.hi) / 2 + 1 else s.lo end,
        case when ${before} then s.hi else (s.lo + s.hi) / 2 end
      from search s
      join timeline_entries e on e.scan_id = ${scanId} and e.seq = (s.lo + s.hi) / 2
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
    .where('scan_id', '=', scanId)
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
    .innerJoin('timeline_entries', (join) =>
      join
        .onRef('timeline_entries.scan_id', '=', 'violations.scan_id')
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
    .where('scan_id', '=', scanId)
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
    .where('scan_id', '=', scanId)
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
