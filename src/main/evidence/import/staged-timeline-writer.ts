import { type Db, dialectOf } from '../../db/index';
import type { GridRecorder } from '../timeline/timeline-cells.repository';
import type { StoredTimelineEntry } from '../timeline/timeline-entry';
import { CopiedTimelineWriter } from './copied-timeline-writer';
import { SteppedTimelineWriter } from './stepped-timeline-writer';

/**
 * Writes one scan's timeline, as it streams past, as a staged timeline (staged-timelines.repository.ts);
 * its pyramid is kept for the scan. The closing transaction adopts it.
 */
export interface StagedTimelineWriter {
  /** The staged timeline, once the first entry made it. */
  readonly id: number | undefined;
  readonly grid: GridRecorder;
  /** Entries in order; the caller may reuse them once this resolves. */
  write(entries: readonly StoredTimelineEntry[]): Promise<void>;
  /** Writes what is left and commits it all; throws the failure of any write. */
  settled(): Promise<void>;
  /** Leaves nothing of the timeline in the store, whatever point its writing reached. */
  discard(): Promise<void>;
}

/**
 * SQLite: a step at a time, each a short transaction, so that SQLite's one writer is shared with
 * submits. PostgreSQL: one open COPY, which holds no lock anybody waits for.
 */
export const stagedTimelineWriter = (db: Db): StagedTimelineWriter =>
  dialectOf(db) === 'postgres' ? new CopiedTimelineWriter(db) : new SteppedTimelineWriter(db);

/** Discards each writer's timeline; for an import that failed or was refused. */
export async function discardAll(writers: readonly StagedTimelineWriter[]): Promise<void> {
  for (const writer of writers) await writer.discard();
}
