import { sql } from 'kysely';
import type { Executor } from '../../db/index';
import { EMPTY, type Aggregate } from './timeline-grid';
import { scanTimelineId } from './timeline-lookup';

// Seq follows timestamp order within a scan (submit sorts, import refuses disorder), so the
// entries of a time window are one run of seqs, found on the primary key: there is no timestamp
// index (migrations 2026_11_25_000000_rebuild_timeline_entries, …120000_create_timelines).

/** The timestamp of the scan's first (or last) entry: one primary-key lookup at either end. */
const endTimestamp = (db: Executor, scanId: string, end: 'asc' | 'desc') =>
  db
    .selectFrom('timeline_entries')
    .select('timestamp')
    .where('timeline_id', '=', scanTimelineId(db, scanId))
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
    .where('timeline_id', '=', scanTimelineId(db, scanId))
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
  const timeline = scanTimelineId(db, scanId);
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
    .where('timeline_id', '=', scanTimelineId(db, scanId))
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
