import type { Executor } from '../db/index';

// What a scan object says of sync (docs/contract/api.md#pulled-scans): the remote a pulled scan
// came from, and the remotes that acknowledged a pushed one.

/** A remote's name; undefined once it was removed. */
export async function remoteName(db: Executor, remoteId: string): Promise<string | undefined> {
  const row = await db.selectFrom('remotes').select('name').where('id', '=', remoteId).executeTakeFirst();
  return row?.name;
}

/** A remote's id by its name; undefined when no remote is called so. */
export async function remoteIdByName(db: Executor, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('remotes').select('id').where('name', '=', name).executeTakeFirst();
  return row?.id;
}

/** The names of the remotes among `ids` (those removed are absent), in one statement. */
export async function remoteNames(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('remotes').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

export interface AcknowledgedPush {
  remote: string;
  remote_scan_id: string;
  remote_violation_count: number | null;
  remote_worst_severity: number | null;
}

/** The remotes that acknowledged scan `scanId`, by name. */
export async function acknowledgedPushes(db: Executor, scanId: string): Promise<AcknowledgedPush[]> {
  const rows = await db
    .selectFrom('sync_pushes')
    .innerJoin('remotes', 'remotes.id', 'sync_pushes.remote_id')
    .select([
      'remotes.name as remote',
      'sync_pushes.remote_scan_id',
      'sync_pushes.remote_violation_count',
      'sync_pushes.remote_worst_severity',
    ])
    .where('sync_pushes.scan_id', '=', scanId)
    .where('sync_pushes.remote_scan_id', 'is not', null)
    .orderBy('remotes.name')
    .execute();
  return rows.map((row) => ({
    ...row,
    remote_scan_id: row.remote_scan_id!,
    remote_violation_count: row.remote_violation_count === null ? null : Number(row.remote_violation_count),
    remote_worst_severity: row.remote_worst_severity === null ? null : Number(row.remote_worst_severity),
  }));
}
