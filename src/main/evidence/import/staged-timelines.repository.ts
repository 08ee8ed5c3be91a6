import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Db, dialectOf, type Executor, inTransaction, relaxTransaction } from '../../db/index';
import { GridRecorder } from '../timeline/timeline-cells.repository';
import type { StoredTimelineEntry } from '../timeline/timeline-entry';
import { timelineInserter } from '../timeline/timeline-writes.repository';

// An import's timelines are written before their scans, in short transactions of their own, so
// that a million entries never hold the store's one writer (SQLite) for the whole import: a
// submit waits for one step at most. Until the import's last transaction gives it its scan, a
// staged timeline has no scan_id, and every reader looks timelines up by scan: nobody sees it
// (migration 2026_11_26_124500_stage_timelines). A refused or failed import deletes what it
// staged; a crashed one's leftovers are swept (sweepStagedTimelines).

/** Entries per transaction: about 5–10 ms of SQLite's writer, the most a submit waits for. */
export const STAGE_ROWS = 5000;
/**
 * PostgreSQL: entries per transaction. A step there holds no lock but its staged timeline's, so
 * nobody waits for it, and fewer steps are fewer round trips; its COPYs are BulkInserter's chunks.
 */
const POSTGRES_STAGE_ROWS = 25_000;

/** Rows per multi-row INSERT; 100 of five columns keeps one statement well under SQLite's parameter limit. */
const INSERT_ROWS = 100;

/** A staged timeline untouched for this long belongs to an import that is no longer running. */
export const STALE_STAGE_MS = 10 * 60_000;

/**
 * Writes one scan's timeline, a step at a time, as a staged timeline; its pyramid is kept for the
 * scan. Entries are copied into the step being filled (the caller may reuse them); a full step is
 * written while the caller reads on, so that reading and the store's writing overlap (on
 * PostgreSQL, another process). `settled` writes what is left and waits for every step.
 */
export class StagedTimelineWriter {
  /** The staged timeline, once the first entry made it. */
  id: number | undefined;
  readonly grid = new GridRecorder();
  private seq = 0;
  private readonly stepRows: number;
  /** The step being filled. */
  private filling: StepRows | undefined;
  /** A written step's rows, to fill again: a step's arrays outlive many young collections. */
  private spare: StepRows | undefined;
  /** The step being written; its failure surfaces at the next step or at `settled`. */
  private inFlight: Promise<void> | undefined;

  constructor(private readonly db: Db) {
    this.stepRows = dialectOf(db) === 'postgres' ? POSTGRES_STAGE_ROWS : STAGE_ROWS;
  }

  async write(entries: readonly StoredTimelineEntry[]): Promise<void> {
    for (let i = 0; i < entries.length;) {
      const rows = (this.filling ??= this.emptyRows());
      const end = Math.min(entries.length, i + rows.capacity - rows.length);
      for (; i < end; i++) {
        const { timestamp, action, tokens } = entries[i]!;
        rows.push(timestamp, action, tokens);
        this.grid.push(timestamp, tokens);
      }
      if (rows.length === rows.capacity) await this.startStep();
    }
  }

  private emptyRows(): StepRows {
    const rows = this.spare ?? new StepRows(this.stepRows);
    this.spare = undefined;
    rows.length = 0;
    return rows;
  }

  /** Writes the entries not yet written, and waits until every step has committed; throws the failure of one that did not. */
  async settled(): Promise<void> {
    await this.startStep();
    await this.lastStep();
  }

  private async lastStep(): Promise<void> {
    const step = this.inFlight;
    this.inFlight = undefined;
    await step;
  }

  /** Starts writing the step filled so far, once the step before has committed. */
  private async startStep(): Promise<void> {
    const rows = this.filling;
    this.filling = undefined;
    if (!rows || rows.length === 0) return;
    const seq = this.seq;
    this.seq += rows.length;
    await this.lastStep();
    // In a transaction of its own, committed before any step: a discard finds it whatever
    // step is in flight, and that step's lock makes the discard wait for it (touchStagedTimeline).
    this.id ??= await inTransaction(this.db, (trx) => createStagedTimeline(trx, Date.now()), {
      isolation: 'read committed',
    });
    const step = this.step(this.id, seq, rows);
    // Marked handled here; the failure is still delivered to whoever awaits it next.
    step.catch(() => undefined);
    this.inFlight = step;
    // A timeline already in memory (inline in a JSON document) comes without any I/O to wait
    // for: without a turn of the event loop here, no request would be read, and no submit
    // written, between two steps.
    await nextTurn();
  }

  private async step(id: number, seq: number, rows: StepRows): Promise<void> {
    const now = Date.now();
    await inTransaction(
      this.db,
      async (trx) => {
        // Safe to leave unflushed: the import's closing transaction commits synchronously, and its
        // flush of the log takes every staged step before it along.
        await relaxTransaction(trx);
        await touchStagedTimeline(trx, id, now);
        const inserter = timelineInserter(this.db, trx, INSERT_ROWS);
        const row: Parameters<typeof inserter.pushRow>[0] = [id, seq, 0, '', 0];
        for (let i = 0; i < rows.length; i++) {
          row[1] = seq + i;
          row[2] = rows.timestamps[i]!;
          row[3] = rows.actions[i]!;
          row[4] = rows.tokens[i]!;
          const written = inserter.pushRow(row);
          if (written) await written;
        }
        await inserter.flush();
      },
      { isolation: 'read committed' },
    );
    this.spare = rows;
  }
}

/** One step's entries, a column at a time; numbers unboxed. */
class StepRows {
  readonly timestamps: Float64Array;
  readonly actions: string[];
  readonly tokens: Float64Array;
  length = 0;

  constructor(readonly capacity: number) {
    this.timestamps = new Float64Array(capacity);
    this.actions = new Array<string>(capacity);
    this.tokens = new Float64Array(capacity);
  }

  push(timestamp: number, action: string, tokens: number): void {
    this.timestamps[this.length] = timestamp;
    this.actions[this.length] = action;
    this.tokens[this.length] = tokens;
    this.length += 1;
  }
}

async function createStagedTimeline(trx: Executor, now: number): Promise<number> {
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
async function touchStagedTimeline(trx: Executor, id: number, now: number): Promise<void> {
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
