import { type Db, type Executor, inTransaction } from '../../db/index';

// An import's timelines are written before their scans, in transactions of their own
// (staged-timeline-writer.ts), so that a million entries never hold the store for the whole
// import. Until the import's last transaction gives it its scan, a staged timeline has no
// scan_id, and every reader looks timelines up by scan: nobody sees it (migration
// 2026_11_26_124500_stage_timelines). A refused or failed import deletes what it staged; a
// crashed one's leftovers are swept (sweepStagedTimelines).

/** Entries per transaction: about 5–10 ms of SQLite's writer, the most a submit waits for. */
export const STAGE_ROWS = 5000;

/** A staged timeline untouched for this long belongs to an import that is no longer running. */
export const STALE_STAGE_MS = 10 * 60_000;

/** A new staged timeline, touched now; its id. */
export async function createStagedTimeline(trx: Executor, now: number): Promise<number> {
  const row = await trx
    .insertInto('timelines')
    .values({ scan_id: null, staged_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Marks staged timeline `id` as written to now, and locks it until the step commits: a sweep
 * deleting it waits, and takes this step's entries along. Throws when it is gone already (swept
 * while the import paused for minutes): no entry is ever written without its timeline, which on
 * PostgreSQL no foreign key checks (migration 2026_11_29_120000_cascade_bulk_rows_by_trigger).
 */
export async function touchStagedTimeline(trx: Executor, id: number, now: number): Promise<void> {
  const result = await trx
    .updateTable('timelines')
    .set({ staged_at: now })
    .where('id', '=', id)
    .where('scan_id', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new Error(`staged timeline ${id} is gone`);
}

/**
 * Gives staged timeline `id` to scan `scanId`, inside the transaction that stores the scan: from
 * its commit on, readers find the whole timeline at once.
 */
export async function adoptStagedTimeline(trx: Executor, id: number, scanId: string): Promise<void> {
  const result = await trx
    .updateTable('timelines')
    .set({ scan_id: scanId, staged_at: null })
    .where('id', '=', id)
    .where('scan_id', 'is', null)
    .executeTakeFirst();
  // Swept as stale meanwhile (an import paused for minutes): the scan cannot be stored whole.
  if (Number(result.numUpdatedRows) !== 1) throw new Error(`staged timeline ${id} is gone`);
}

/** Deletes staged timelines and their entries, a step at a time, so that a long one never holds the writer. */
export async function discardStagedTimelines(db: Db, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    for (;;) {
      const last = await db
        .selectFrom('timeline_entries')
        .select((eb) => eb.fn.max<number | null>('seq').as('seq'))
        .where('timeline_id', '=', id)
        .executeTakeFirst();
      if (last?.seq === null || last?.seq === undefined) break;
      const from = Number(last.seq) - STAGE_ROWS + 1;
      await inTransaction(
        db,
        (trx) => trx.deleteFrom('timeline_entries').where('timeline_id', '=', id).where('seq', '>=', from).execute(),
        { isolation: 'read committed' },
      );
    }
    await inTransaction(
      db,
      (trx) => trx.deleteFrom('timelines').where('id', '=', id).where('scan_id', 'is', null).execute(),
      { isolation: 'read committed' },
    );
  }
}

/**
 * Deletes the staged timelines of imports that stopped (a crash, a kill) without cleaning up:
 * those untouched for `olderThanMs`. A running import touches its own at every step.
 */
export async function sweepStagedTimelines(db: Db, olderThanMs = STALE_STAGE_MS): Promise<number> {
  const rows = await db
    .selectFrom('timelines')
    .select('id')
    .where('scan_id', 'is', null)
    .where('staged_at', '<', Date.now() - olderThanMs)
    .execute();
  await discardStagedTimelines(
    db,
    rows.map((row) => Number(row.id)),
  );
  return rows.length;
}
