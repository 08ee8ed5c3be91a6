import type { Executor } from '../db/index';
import { visibleInRollup } from './scans.repository';

/**
 * The tools of the scans the user can see, with how many scans each, summed from the scan_counts
 * rollup: its rows are a few per (organization, submitter, tool), so this reads thousands of rows
 * however many scans the store holds, never the scans themselves.
 */
export async function visibleToolCounts(db: Executor, userId: string): Promise<{ name: string; scans: number }[]> {
  const rows = await db
    .selectFrom('scan_counts')
    .where(visibleInRollup('scan_counts', userId))
    .select((eb) => ['scan_counts.tool as name', eb.fn.sum<number | string>('scan_counts.scans').as('scans')])
    .groupBy('scan_counts.tool')
    .execute();
  return rows.map((row) => ({ name: row.name, scans: Number(row.scans) })).filter((row) => row.scans > 0);
}
