import type { Executor } from '../../src/main/db/database';

/** Timeline entries of stored scans beside their scan's id, as tests look for them. */
export const entriesWithScan = (db: Executor) =>
  db
    .selectFrom('timeline_entries')
    .innerJoin('timelines', 'timelines.id', 'timeline_entries.timeline_id')
    .select([
      'timelines.scan_id',
      'timeline_entries.seq',
      'timeline_entries.timestamp',
      'timeline_entries.action',
      'timeline_entries.tokens',
    ])
    // An import's staged timeline belongs to no scan yet.
    .where('timelines.scan_id', 'is not', null)
    .$narrowType<{ scan_id: string }>();
