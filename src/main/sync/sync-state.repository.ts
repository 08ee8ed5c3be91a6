import type { Executor } from '../db/index';

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
