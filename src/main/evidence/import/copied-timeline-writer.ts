import { type Db, ENTRY_SAMPLE, OpenCopy, relaxTransaction } from '../../db/index';
import { GridRecorder } from '../timeline/timeline-cells.repository';
import type { StoredTimelineEntry } from '../timeline/timeline-entry';
import type { StagedTimelineWriter } from './staged-timeline-writer';
import { createStagedTimeline, discardStagedTimelines } from './staged-timelines.repository';

/** The rows' columns, in the order `write` gives their values: ENTRY_SAMPLE's, as every entry writer's. */
const ENTRY_COLUMNS = Object.keys(ENTRY_SAMPLE);

/**
 * PostgreSQL: a staged timeline written through one COPY, open from its first entry until
 * `settled`, in one transaction with the staged timeline's row: nobody sees either before it
 * commits, so no sweep can take the row from under its entries, and nothing is left of an
 * abandoned one. Nobody waits for it either: it locks nothing but rows of its own.
 */
export class CopiedTimelineWriter implements StagedTimelineWriter {
  id: number | undefined;
  readonly grid = new GridRecorder();
  private seq = 0;
  private copy: OpenCopy<number> | undefined;
  private committed = false;

  constructor(private readonly db: Db) {}

  async write(entries: readonly StoredTimelineEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const copy = (this.copy ??= await this.open());
    const id = copy.value;
    for (const { timestamp, action, tokens } of entries) {
      const text = copy.text;
      text.value(id, false);
      text.value(this.seq++, false);
      text.value(timestamp, false);
      text.value(action, false);
      text.value(tokens, true);
      this.grid.push(timestamp, tokens);
      const sent = copy.sendIfFull();
      if (sent) await sent;
    }
  }

  private async open(): Promise<OpenCopy<number>> {
    const copy = await OpenCopy.open(this.db, 'timeline_entries', ENTRY_COLUMNS, async (trx) => {
      // Safe to leave unflushed: the import's closing transaction commits synchronously, and its
      // flush of the log takes this one's along.
      await relaxTransaction(trx);
      return createStagedTimeline(trx, Date.now());
    });
    this.id = copy.value;
    return copy;
  }

  async settled(): Promise<void> {
    if (!this.copy || this.committed) return;
    this.committed = true;
    await this.copy.commit();
  }

  async discard(): Promise<void> {
    if (!this.copy) return;
    if (!this.committed) await this.copy.rollback();
    else if (this.id !== undefined) await discardStagedTimelines(this.db, [this.id]);
  }
}
