import type { Generated, Insertable, Selectable } from 'kysely';

/** A scan's timeline, when it has entries: the integer its entries are keyed by. */
export interface TimelineTable {
  id: Generated<number>;
  /** Null while an import is still writing the timeline: no reader finds it until its scan is stored. */
  scan_id: string | null;
  /** Epoch ms an import last wrote to a staged timeline; null once it belongs to a scan. */
  staged_at: number | null;
}

export interface TimelineEntryTable {
  /** timelines.id */
  timeline_id: number;
  /** Position in the scan's timeline (timestamp order), from 0. */
  seq: number;
  /** Epoch milliseconds. */
  timestamp: number;
  action: string;
  tokens: number;
}

export type TimelineEntryRow = Selectable<TimelineEntryTable>;
export type NewTimelineEntry = Insertable<TimelineEntryTable>;
