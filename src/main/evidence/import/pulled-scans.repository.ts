import type { Executor, NewScan, NewViolation } from '../../db/index';
import { insertViolations } from '../../scans/scans.repository';

// The writes and lookups of storing pulled scans (docs/contract/api.md#pulled-scans); each runs
// in the caller's transaction.

/** The remote's verdict on one of our pushes, as a pull heard it; false when the push is gone. */
export async function recordRemoteVerdict(
  db: Executor,
  remoteId: string,
  remoteScanId: string,
  verdict: { violationCount: number; worstSeverity: number },
): Promise<boolean> {
  const result = await db
    .updateTable('sync_pushes')
    .set({ remote_violation_count: verdict.violationCount, remote_worst_severity: verdict.worstSeverity })
    .where('remote_id', '=', remoteId)
    .where('remote_scan_id', '=', remoteScanId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Gives a scan whose old violations were deleted its new ones, then the columns given. In this
 * order the rollup triggers stay exact: the violations come in under the scan's old key, and the
 * row's update moves them all to its new one (migration 2026_11_21_100000_create_day_rollups).
 */
export async function rewritePulledScan(
  db: Executor,
  scanId: string,
  violations: readonly Omit<NewViolation, 'scan_id' | 'seq'>[],
  fields: Partial<Omit<NewScan, 'id'>>,
): Promise<void> {
  await insertViolations(
    db,
    violations.map((violation, seq) => ({ ...violation, scan_id: scanId, seq })),
  );
  if (Object.keys(fields).length > 0) await db.updateTable('scans').set(fields).where('id', '=', scanId).execute();
}

export async function deleteViolationsOf(db: Executor, scanId: string): Promise<void> {
  await db.deleteFrom('violations').where('scan_id', '=', scanId).execute();
}

/**
 * Takes a scan's timeline and pyramid away from it: the entries become a staged timeline that
 * nobody reads, deleted a step at a time after the commit (or swept, should the process stop
 * first: staged_at 0 is stale at once). The timeline's id, if the scan had one.
 */
export async function detachTimeline(db: Executor, scanId: string): Promise<number | undefined> {
  await db.deleteFrom('timeline_grids').where('scan_id', '=', scanId).execute();
  const row = await db
    .updateTable('timelines')
    .set({ scan_id: null, staged_at: 0 })
    .where('scan_id', '=', scanId)
    .returning('id')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}
