import { sql } from 'kysely';
import { dialectOf, inList, type Executor } from '../../db/index';
import { gridTotals } from './timeline-cells.repository';
import type { TimelineTuple } from './timeline-entry';

// Timelines of many scans read at once, for the export of a page of small scans and a sync
// answer: a statement per group of scans instead of one per scan.

/** Where a scan's timeline is: its id (undefined when it has no entries) and whether a pyramid sums it. */
export interface TimelineRef {
  timelineId: number | undefined;
  /** Whether the summary pyramid holds it: a long timeline, streamed on its own. */
  summarised: boolean;
}

/** Each scan's timeline id and whether it is summarised, in two indexed statements for all. */
export async function timelineRefs(db: Executor, scanIds: readonly string[]): Promise<Map<string, TimelineRef>> {
  const refs = new Map<string, TimelineRef>();
  for (const id of scanIds) refs.set(id, { timelineId: undefined, summarised: false });
  if (scanIds.length === 0) return refs;
  const [timelines, grids] = await Promise.all([
    db
      .selectFrom('timelines')
      .select(['id', 'scan_id'])
      .where(inList(db, 'scan_id', scanIds))
      .execute(),
    db
      .selectFrom('timeline_grids')
      .select('scan_id')
      .where(inList(db, 'scan_id', scanIds))
      .execute(),
  ]);
  const summarised = new Set(grids.map((grid) => grid.scan_id));
  for (const timeline of timelines) {
    if (timeline.scan_id === null) continue;
    refs.set(timeline.scan_id, { timelineId: Number(timeline.id), summarised: summarised.has(timeline.scan_id) });
  }
  return refs;
}

export interface TimelineInfo extends TimelineRef {
  count: number;
  tokens: number;
}

/**
 * Each scan's timeline id and totals: from the pyramid's top cell where there is one (as
 * timelineTotals), else counted, all unsummarised ones in one grouped statement.
 */
export async function timelineInfos(db: Executor, scanIds: readonly string[]): Promise<Map<string, TimelineInfo>> {
  const infos = new Map<string, TimelineInfo>();
  const counted = new Map<number, TimelineInfo>();
  for (const [id, ref] of await timelineRefs(db, scanIds)) {
    const info: TimelineInfo = { ...ref, count: 0, tokens: 0 };
    infos.set(id, info);
    if (ref.timelineId === undefined) continue;
    if (ref.summarised) {
      const totals = await gridTotals(db, id);
      info.count = totals?.count ?? 0;
      info.tokens = totals?.tokens ?? 0;
    } else counted.set(ref.timelineId, info);
  }
  if (counted.size > 0) {
    const rows = await db
      .selectFrom('timeline_entries')
      .select((eb) => [
        'timeline_id',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number | null>('tokens').as('tokens'),
      ])
      .where(inList(db, 'timeline_id', [...counted.keys()]))
      .groupBy('timeline_id')
      .execute();
    for (const row of rows) {
      const info = counted.get(Number(row.timeline_id))!;
      info.count = Number(row.count);
      info.tokens = Number(row.tokens ?? 0);
    }
  }
  return infos;
}

/**
 * The entries of several timelines, in (timeline, seq) order, `limit` rows a statement (keyset on
 * both): the caller keeps them, so it asks only for timelines it has counted as short.
 */
export async function* timelinesTupleChunks(
  db: Executor,
  timelineIds: readonly number[],
  limit: number,
): AsyncGenerator<{ timelineId: number; tuple: TimelineTuple }[]> {
  if (timelineIds.length === 0) return;
  let after: [number, number] = [-1, -1];
  for (;;) {
    const [lastTimeline, lastSeq] = after;
    const rows = await db
      .selectFrom('timeline_entries')
      .select(['timeline_id', 'seq', 'timestamp', 'action', 'tokens'])
      .where(inList(db, 'timeline_id', timelineIds))
      .where((eb) =>
        eb.or([
          eb('timeline_id', '>', lastTimeline),
          eb.and([eb('timeline_id', '=', lastTimeline), eb('seq', '>', lastSeq)]),
        ]),
      )
      .orderBy('timeline_id')
      .orderBy('seq')
      .limit(limit)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      timelineId: Number(row.timeline_id),
      tuple: [Number(row.seq), Number(row.timestamp), row.action, Number(row.tokens)] as TimelineTuple,
    }));
    const last = rows[rows.length - 1]!;
    after = [Number(last.timeline_id), Number(last.seq)];
    if (rows.length < limit) return;
  }
}

/** A short timeline as JSON text, `[[epoch ms, action, tokens], …]` in seq order, and its totals. */
export interface TimelineJson {
  json: string;
  count: number;
  tokens: number;
}

/**
 * The entries of short timelines as JSON text, one value per timeline built by the database, with
 * their count and token sum from the same pass: a sync answer's line splices the text in as it
 * is, so that no entry becomes a row object, then a JavaScript value, then JSON again on the way
 * (for a page of small scans that was most of the answer's work). Only for timelines the caller
 * knows to be short (a scan's `request_count`): each is held whole. A timeline without entries is
 * `[]`.
 */
export async function timelinesAsJson(
  db: Executor,
  timelineIds: readonly number[],
): Promise<Map<number, TimelineJson>> {
  const json = new Map<number, TimelineJson>(timelineIds.map((id) => [id, { json: '[]', count: 0, tokens: 0 }]));
  if (timelineIds.length === 0) return json;
  // PostgreSQL's json_agg puts a line break between elements: joined by hand, a line stays one line.
  const entries =
    dialectOf(db) === 'postgres'
      ? sql<string>`'[' || string_agg(json_build_array("timestamp", action, tokens)::text, ',' ORDER BY seq) || ']'`
      : sql<string>`json_group_array(json_array("timestamp", action, tokens) ORDER BY seq)`;
  const rows = await db
    .selectFrom('timeline_entries')
    .select((eb) => [
      'timeline_id',
      entries.as('entries'),
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number | null>('tokens').as('tokens'),
    ])
    .where(inList(db, 'timeline_id', timelineIds))
    .groupBy('timeline_id')
    .execute();
  for (const row of rows) {
    json.set(Number(row.timeline_id), { json: row.entries, count: Number(row.count), tokens: Number(row.tokens ?? 0) });
  }
  return json;
}
