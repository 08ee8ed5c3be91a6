import type { Executor, RemoteKind } from '../db/index';

// A remote row's sync state: the lease that lets one run at a time touch it (across every process
// on the store), the pull's cursor and the last run's summary. Every write of a run's state names
// the lease owner, so a run that lost its lease (it stalled past the deadline and another took
// over) can no longer move the cursor: its batch rolls back with it.

/** Another run holds the remote's lease, or this run's lease was taken while it stalled. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

/**
 * Claims the remote for `owner` until `until` (epoch ms) when nobody holds it or the holder's
 * deadline passed; true when claimed. One conditional UPDATE: two claimants cannot both win.
 */
export async function takeLease(
  db: Executor,
  remoteId: string,
  owner: string,
  now: number,
  until: number,
): Promise<boolean> {
  const result = await db
    .updateTable('remotes')
    .set({ lease_owner: owner, lease_until: until })
    .where('id', '=', remoteId)
    .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The remote's lease holder, if any (whatever its deadline). */
export async function leaseHolder(db: Executor, remoteId: string): Promise<string | null> {
  const row = await db.selectFrom('remotes').select('lease_owner').where('id', '=', remoteId).executeTakeFirst();
  return row?.lease_owner ?? null;
}

/** Takes the lease from `holder` (known dead) for `owner`; false when someone else moved first. */
export async function takeOverLease(
  db: Executor,
  remoteId: string,
  holder: string,
  owner: string,
  until: number,
): Promise<boolean> {
  const result = await db
    .updateTable('remotes')
    .set({ lease_owner: owner, lease_until: until })
    .where('id', '=', remoteId)
    .where('lease_owner', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Moves the deadline on while `owner` still holds the lease; false when it does not. */
export async function renewLease(db: Executor, remoteId: string, owner: string, until: number): Promise<boolean> {
  const result = await db
    .updateTable('remotes')
    .set({ lease_until: until })
    .where('id', '=', remoteId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseLease(db: Executor, remoteId: string, owner: string): Promise<void> {
  await db
    .updateTable('remotes')
    .set({ lease_owner: null, lease_until: null })
    .where('id', '=', remoteId)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Saves the pull's position; called inside the transaction that stored the batch it follows
 * (docs/sync.md), so the cursor never runs ahead of what was committed. Throws LeaseLost, rolling
 * that transaction back, when `owner` no longer holds the lease.
 */
export async function saveCursor(db: Executor, remoteId: string, owner: string, cursor: string | null): Promise<void> {
  const result = await db
    .updateTable('remotes')
    .set({ cursor })
    .where('id', '=', remoteId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new LeaseLost('the sync lost its lease on the remote');
}

/** The last run's summary (JSON of SyncSummary) and when it finished. */
export async function saveLastSync(db: Executor, remoteId: string, summary: string, at: number): Promise<void> {
  await db.updateTable('remotes').set({ last_sync: summary, last_sync_at: at }).where('id', '=', remoteId).execute();
}

/** What the remote turned out to be, when a run's probe found it changed (or it was never reached). */
export async function saveRemoteKind(db: Executor, remoteId: string, kind: RemoteKind): Promise<void> {
  await db.updateTable('remotes').set({ kind }).where('id', '=', remoteId).execute();
}

/**
 * The remote scans this store knows of: pulled from it, or our own pushes it acknowledged. After a
 * complete pull, what exceeds the remote's visible total is gone there (and kept here).
 */
export async function countKnownRemoteScans(db: Executor, remoteId: string): Promise<number> {
  const pulled = await db
    .selectFrom('scans')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('origin_remote_id', '=', remoteId)
    .executeTakeFirstOrThrow();
  const pushed = await db
    .selectFrom('sync_pushes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('remote_id', '=', remoteId)
    .where('remote_scan_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(pulled.n) + Number(pushed.n);
}
