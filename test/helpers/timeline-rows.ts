import type { Executor } from '../../src/main/db/database';

/** Timeline entries beside their scan's id, as tests look for them. */
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
    ]);

/** Gives a scan a timeline row and answers its id, for tests that write entries themselves. */
export async function newTimeline(db: Executor, scanId: string): Promise<number> {
  const row = await db.insertInto('timelines').values({ scan_id: scanId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}
