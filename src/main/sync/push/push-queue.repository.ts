import { sql } from 'kysely';
import type { Executor, RemoteRow } from '../../db/index';

// The push queue is a query, not a table (docs/sync.md): the remote user's local submits (source
// `submitted`, created at or after the remote's push_since, in no organization or in one mirrored
// from that remote) that the remote has not acknowledged. Imported and pulled scans are never
// pushed. A scan read from the queue is marked as being sent (a push row without a remote id)
// before it goes, so that a run after a crash sends those first, before its pull could take the
// remote's copy for a new scan. It walks (submitted_by, created_at, id), an index of scans.

/** A queued scan, with its organization's id on the remote (null: none). */
export interface QueuedScan {
  id: string;
  created_at: number;
  tool: string;
  action: string;
  tokens: number;
  token_breakdown: string;
  remote_org_id: string | null;
}

/** Where a page of the queue ends: the next page starts after it. */
export interface QueuePosition {
  created_at: number;
  id: string;
}

type PushTarget = Pick<RemoteRow, 'id' | 'user_id' | 'push_since'>;

/** The queue's rows (scans joined to their organization), for a caller to select from. */
export function queued(db: Executor, remote: PushTarget) {
  return db
    .selectFrom('scans')
    .leftJoin('organizations', 'organizations.id', 'scans.organization_id')
    .where('scans.submitted_by', '=', remote.user_id)
    .where('scans.source', '=', 'submitted')
    .where('scans.created_at', '>=', remote.push_since)
    .where((eb) => eb.or([eb('scans.organization_id', 'is', null), eb('organizations.remote_id', '=', remote.id)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('sync_pushes')
            .select(sql.lit(1).as('one'))
            .where('sync_pushes.remote_id', '=', remote.id)
            .whereRef('sync_pushes.scan_id', '=', 'scans.id')
            .where('sync_pushes.remote_scan_id', 'is not', null),
        ),
      ),
    );
}

/** The next `limit` scans waiting to go to `remote`, oldest first, after `after`; of `only` when given. */
export async function queuedScans(
  db: Executor,
  remote: PushTarget,
  limit: number,
  after: QueuePosition | null = null,
  only?: readonly string[],
): Promise<QueuedScan[]> {
  if (only?.length === 0) return [];
  let query = queued(db, remote)
    .select([
      'scans.id',
      'scans.created_at',
      'scans.tool',
      'scans.action',
      'scans.tokens',
      'scans.token_breakdown',
      'organizations.remote_org_id',
    ])
    .orderBy('scans.created_at')
    .orderBy('scans.id')
    .limit(limit);
  if (only) query = query.where('scans.id', 'in', only);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('scans.created_at', '>', after.created_at),
        eb.and([eb('scans.created_at', '=', after.created_at), eb('scans.id', '>', after.id)]),
      ]),
    );
  }
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at), tokens: Number(row.tokens) }));
}

/** How many scans wait to go to `remote`. */
export async function countQueued(db: Executor, remote: PushTarget): Promise<number> {
  const row = await queued(db, remote)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ids of scans sent to `remote` whose answer never came back (a crash, a cut connection). */
export async function unansweredPushes(db: Executor, remoteId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('sync_pushes')
    .select('scan_id')
    .where('remote_id', '=', remoteId)
    .where('remote_scan_id', 'is', null)
    .orderBy('scan_id')
    .execute();
  return rows.map((row) => row.scan_id);
}

/** Marks a scan as being sent to `remote`, unless it is marked or acknowledged already. */
export async function markSending(db: Executor, remoteId: string, scanId: string): Promise<void> {
  await db
    .insertInto('sync_pushes')
    .values({
      remote_id: remoteId,
      scan_id: scanId,
      remote_scan_id: null,
      pushed_at: null,
      remote_violation_count: null,
      remote_worst_severity: null,
    })
    .onConflict((oc) => oc.columns(['remote_id', 'scan_id']).doNothing())
    .execute();
}

/** The remote's acknowledgement: its id for the scan and its verdict under its own policy. */
export interface PushAck {
  remoteScanId: string;
  at: number;
  violationCount: number;
  worstSeverity: number;
}

export async function recordAck(db: Executor, remoteId: string, scanId: string, ack: PushAck): Promise<void> {
  const values = {
    remote_scan_id: ack.remoteScanId,
    pushed_at: ack.at,
    remote_violation_count: ack.violationCount,
    remote_worst_severity: ack.worstSeverity,
  };
  await db
    .insertInto('sync_pushes')
    .values({ remote_id: remoteId, scan_id: scanId, ...values })
    .onConflict((oc) => oc.columns(['remote_id', 'scan_id']).doUpdateSet(values))
    .execute();
}
