import { sql } from 'kysely';
import type { Db } from '../../src/main/db/database';

/**
 * The bucket query the endpoint ran before summary pyramids: every entry of the scan grouped into
 * n equal buckets. Answers the timeline's bounds, which the benchmark's windows are drawn from.
 */
export async function groupEveryEntry(db: Db, scanId: string, n: number): Promise<{ first: number; last: number }> {
  const { rows } = await sql<{ first: number; last: number }>`
    SELECT min(timestamp) AS first, max(timestamp) AS last FROM timeline_entries
    WHERE timeline_id = (SELECT id FROM timelines WHERE scan_id = ${scanId})`.execute(db);
  const first = Number(rows[0]!.first);
  const last = Number(rows[0]!.last);
  const width = Math.max(1, Math.ceil((last - first + 1) / n));
  await sql`
    SELECT cast((timestamp - ${first}) / ${width} AS bigint) AS bucket, count(*), sum(tokens), min(tokens), max(tokens)
    FROM timeline_entries WHERE timeline_id = (SELECT id FROM timelines WHERE scan_id = ${scanId})
    GROUP BY bucket ORDER BY bucket`.execute(db);
  return { first, last };
}
