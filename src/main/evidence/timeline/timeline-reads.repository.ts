import { type BinaryCopyRows, copyOutRows, type Db, dialectOf, type Executor, tupleReader } from '../../db/index';
import { gridTotals } from './timeline-cells.repository';
import { TIMELINE_CHUNK, type TimelineExportChunk, type TimelineRow, type TimelineTuple } from './timeline-entry';
import { scanTimelineId } from './timeline-lookup';

// A scan's timeline read in order: its totals, all of it a chunk at a time (the evidence body, the
// export, an import's comparison), or one page of it (GET …/evidence/timeline).

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
    .where('timeline_id', '=', scanTimelineId(db, scanId))
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), tokens: Number(row.tokens ?? 0) };
}

const chunkQuery = (db: Executor, scanId: string, after: number, limit: number) =>
  db
    .selectFrom('timeline_entries')
    .select(['seq', 'timestamp', 'action', 'tokens'])
    .where('timeline_id', '=', scanTimelineId(db, scanId))
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit);

/**
 * A scan's timeline in order, a chunk at a time (keyset on seq). Each chunk is its own short
 * query, so a slow reader never holds the connection and memory stays flat for any length.
 */
export async function* timelineChunks(
  db: Executor,
  scanId: string,
  chunkSize = TIMELINE_CHUNK,
): AsyncGenerator<TimelineRow[]> {
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
export async function* timelineTupleChunks(
  db: Db,
  scanId: string,
  chunkSize = TIMELINE_CHUNK,
): AsyncGenerator<TimelineTuple[]> {
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

/**
 * Rows of a COPY chunk: ~50 bytes each on the wire, so a chunk holds about 500 KB and encodes in
 * a few milliseconds, between which the deflate thread's callbacks run. Measured on a 1M-entry
 * export under load: the server's CPU 1.45–1.56 s per download at 10,000, 1.67–1.97 at 20,000,
 * 1.74–1.93 at 50,000 (main: 2.6).
 */
const COPY_CHUNK = 10_000;
/** The columns of a COPY chunk, in TimelineTuple's order. */
const COPY_FIELDS = 4;

/**
 * A scan's timeline in order for the export, given its id and its timeline's (timelineInfos): on
 * SQLite timelineTupleChunks; on PostgreSQL keyset chunks each read by one binary COPY (see
 * copyOutRows), the next one read while the caller encodes this one, so the backend and Node work
 * side by side. Each COPY hands its connection back as soon as its rows are in: a reader that
 * stops taking chunks holds none, and at most two chunks are in memory. Not for use inside a
 * transaction.
 */
export async function* timelineExportChunks(
  db: Db,
  timeline: { scanId: string; timelineId: number },
  copyChunk = COPY_CHUNK,
): AsyncGenerator<TimelineExportChunk> {
  if (dialectOf(db) !== 'postgres') {
    yield* timelineTupleChunks(db, timeline.scanId);
    return;
  }
  const read = (after: number): Promise<BinaryCopyRows> =>
    copyOutRows(
      db,
      db
        .selectFrom('timeline_entries')
        .select(['seq', 'timestamp', 'action', 'tokens'])
        .where('timeline_id', '=', timeline.timelineId)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(copyChunk)
        .compile(),
      COPY_FIELDS,
    );
  let next: Promise<BinaryCopyRows> | undefined = read(FIRST_AFTER);
  try {
    while (next) {
      const rows: BinaryCopyRows = await next;
      next = rows.length === copyChunk ? read(rows.int4(rows.length - 1, 0)) : undefined;
      if (rows.length > 0) yield rows;
    }
  } finally {
    // A caller that stopped early leaves the read ahead to finish and hand its connection back.
    next?.catch(() => undefined);
  }
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
    .where('timeline_id', '=', scanTimelineId(db, scanId))
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
    .where('timeline_id', '=', scanTimelineId(db, scanId))
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
