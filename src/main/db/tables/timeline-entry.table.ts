import type { Insertable, Selectable } from 'kysely';

export interface TimelineEntryTable {
  scan_id: string;
  /** Position in the scan's timeline (timestamp order), from 0. */
  seq: number;
  /** Epoch milliseconds. */
  timestamp: number;
  action: string;
  tokens: number;
}

export type TimelineEntryRow = Selectable<TimelineEntryTable>;
export type NewTimelineEntry = Insertable<TimelineEntryTable>;
