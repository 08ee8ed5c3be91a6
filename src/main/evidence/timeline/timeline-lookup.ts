import type { Executor } from '../../db/index';

// A scan with entries has a row in `timelines`, whose integer id keys its entries (migration
// 2026_11_25_120000_create_timelines); an entry is addressed by (timeline_id, seq), seq following
// timestamp order (submits sort, imports refuse disorder). Readers take the scan id and find its
// timeline in the same statement; a staged timeline (an import's, not yet given its scan) has no
// scan id, so no reader finds it.

/** The scan's timeline id, as a scalar subquery: one unique-index lookup, run once per statement. */
export const scanTimelineId = (db: Executor, scanId: string) =>
  db.selectFrom('timelines').select('timelines.id').where('timelines.scan_id', '=', scanId);
