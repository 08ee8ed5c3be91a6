import type { Insertable, Selectable } from 'kysely';

/** A long timeline's summary pyramid: see src/main/evidence/timeline/timeline-grid.ts. */
export interface TimelineGridTable {
  scan_id: string;
  /** Epoch ms of the first entry: cell 0 of every level starts there. */
  origin: number;
  /** Level 0's cell width in ms. */
  width: number;
  levels: number;
}

export interface TimelineCellTable {
  scan_id: string;
  level: number;
  cell: number;
  /** The lowest level the row stands for: where its entries split in two; 0 for a level-0 cell. */
  low_level: number;
  /** Index of the row's first non-empty level-0 cell. */
  first_cell: number;
  count: number;
  tokens: number;
  min_tokens: number;
  max_tokens: number;
}

export type TimelineGridRow = Selectable<TimelineGridTable>;
export type TimelineCellRow = Selectable<TimelineCellTable>;
export type NewTimelineCell = Insertable<TimelineCellTable>;
