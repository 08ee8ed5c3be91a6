import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Db, inTransaction, relaxTransaction } from '../../db/index';
import { GridRecorder } from '../timeline/timeline-cells.repository';
import type { StoredTimelineEntry } from '../timeline/timeline-entry';
import { timelineInserter } from '../timeline/timeline-writes.repository';
import type { StagedTimelineWriter } from './staged-timeline-writer';
import {
  createStagedTimeline,
  discardStagedTimelines,
  STAGE_ROWS,
  touchStagedTimeline,
} from './staged-timelines.repository';

/** Rows per multi-row INSERT; 100 of five columns keeps one statement well under SQLite's parameter limit. */
const INSERT_ROWS = 100;

/**
 * A staged timeline written a step (STAGE_ROWS entries) at a time, each step a short transaction
 * of its own: SQLite's one writer is held for a step at most, so a submit waits for no more. A
 * full step is written while the caller reads on, so that reading and the store's writing overlap.
 * Entries are copied into the step being filled (the caller may reuse them).
 */
export class SteppedTimelineWriter implements StagedTimelineWriter {
  id: number | undefined;
  readonly grid = new GridRecorder();
  private seq = 0;
  /** The step being filled. */
  private filling: StepRows | undefined;
  /** A written step's rows, to fill again: a step's arrays outlive many young collections. */
  private spare: StepRows | undefined;
  /** The step being written; its failure surfaces at the next step or at `settled`. */
  private inFlight: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

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
    const rows = this.spare ?? new StepRows(STAGE_ROWS);
    this.spare = undefined;
    rows.length = 0;
    return rows;
  }

  async settled(): Promise<void> {
    await this.startStep();
    await this.lastStep();
  }

  async discard(): Promise<void> {
    // The step in flight first: its entries are deleted with the rest.
    await this.lastStep().catch(() => undefined);
    if (this.id !== undefined) await discardStagedTimelines(this.db, [this.id]);
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
