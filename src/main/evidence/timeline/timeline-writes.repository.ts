import { sql } from 'kysely';
import {
  BulkInserter,
  ENTRY_SAMPLE,
  TIMELINE_SAMPLE,
  type Db,
  type Executor,
  dialectOf,
  powerOfTwoChunks,
  ReusableQuery,
} from '../../db/index';
import type { StoredTimelineEntry } from './timeline-entry';

// Every write of `timelines` and `timeline_entries` but an import's staging
// (import/staged-timelines.repository.ts): a submit's timeline in one go, those of a group
// commit's submits together, and the compile-once inserters of bulk loads (import, demo).

/** Gives the scan a timeline and answers its id. */
export async function createTimeline(db: Executor, scanId: string): Promise<number> {
  const { rows } = await CREATE_TIMELINES.execute(db, [scanId], 1);
  return Number(rows[0]!.id);
}

/** Timelines for `rows` scans, answering each one's id with its scan's (one row is createTimeline). */
const CREATE_TIMELINES = new ReusableQuery((db, rows: number) =>
  db
    .insertInto('timelines')
    .values(Array.from({ length: rows }, () => ({ scan_id: '' })))
    .returning(['id', 'scan_id']),
);
const INSERT_ENTRIES = new ReusableQuery((db, rows: number) =>
  db.insertInto('timeline_entries').values(Array.from({ length: rows }, () => ENTRY_SAMPLE)),
);
const ENTRY_COLUMNS = Object.keys(ENTRY_SAMPLE).length;

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
  entries: readonly StoredTimelineEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await insertEntries(db, [{ timelineId: await createTimeline(db, scanId), entries }]);
}

/** A scan's timeline to store with others (insertTimelines): one entry at least. */
export interface ScanTimeline {
  scanId: string;
  entries: readonly StoredTimelineEntry[];
}

/**
 * insertTimeline for several scans at once (a group commit's submits on SQLite): their timelines
 * a multi-row INSERT per chunk (powerOfTwoChunks), then every entry in chunks of INSERT_ROWS
 * across them.
 */
export async function insertTimelines(db: Executor, timelines: readonly ScanTimeline[]): Promise<void> {
  const idOf = new Map<string, number>();
  for (const chunk of powerOfTwoChunks(timelines, INSERT_ROWS)) {
    const { rows } = await CREATE_TIMELINES.execute(
      db,
      chunk.map((timeline) => timeline.scanId),
      chunk.length,
    );
    // RETURNING rows come in no promised order: matched by scan.
    for (const row of rows) idOf.set(row.scan_id!, Number(row.id));
  }
  await insertEntries(
    db,
    timelines.map(({ scanId, entries }) => ({ timelineId: idOf.get(scanId)!, entries })),
  );
}

/** The entries of each timeline, seq numbered from 0, in multi-row INSERTs of INSERT_ROWS across them. */
async function insertEntries(
  db: Executor,
  timelines: readonly { timelineId: number; entries: readonly StoredTimelineEntry[] }[],
): Promise<void> {
  // In ENTRY_SAMPLE's column order.
  let values: (string | number)[] = [];
  for (const { timelineId, entries } of timelines) {
    for (let seq = 0; seq < entries.length; seq++) {
      const { timestamp, action, tokens } = entries[seq]!;
      values.push(timelineId, seq, timestamp, action, tokens);
      if (values.length === INSERT_ROWS * ENTRY_COLUMNS) {
        await INSERT_ENTRIES.execute(db, values, INSERT_ROWS);
        values = [];
      }
    }
  }
  if (values.length > 0) await INSERT_ENTRIES.execute(db, values, values.length / ENTRY_COLUMNS);
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
