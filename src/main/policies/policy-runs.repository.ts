import type { Executor } from '../db/index';

// Claims on an organization's one running policy preview or re-evaluation, shared by every server
// process on the store.

/**
 * Claims the organization for `runId` unless another run holds a claim that beat after
 * `staleBefore`; the run id of a stale claim it took over (its staged rows are left to remove),
 * null when there was none, or `'busy'`.
 */
export async function claimRun(
  db: Executor,
  organizationId: string,
  runId: string,
  now: number,
  staleBefore: number,
): Promise<string | null | 'busy'> {
  const held = await db
    .selectFrom('policy_runs')
    .select(['run_id', 'heartbeat_at'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (held && Number(held.heartbeat_at) >= staleBefore) return 'busy';
  if (held) {
    await db
      .updateTable('policy_runs')
      .set({ run_id: runId, heartbeat_at: now })
      .where('organization_id', '=', organizationId)
      .execute();
    return held.run_id;
  }
  await db
    .insertInto('policy_runs')
    .values({ organization_id: organizationId, run_id: runId, heartbeat_at: now })
    .execute();
  return null;
}

/** Keeps a claim alive; false when the run no longer holds it (it was taken over as stale). */
export async function beat(db: Executor, organizationId: string, runId: string, now: number): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('policy_runs')
    .set({ heartbeat_at: now })
    .where('organization_id', '=', organizationId)
    .where('run_id', '=', runId)
    .executeTakeFirstOrThrow();
  return numUpdatedRows > 0n;
}

/** Ends a claim (nothing if the run no longer holds it). */
export async function releaseRun(db: Executor, organizationId: string, runId: string): Promise<void> {
  await db
    .deleteFrom('policy_runs')
    .where('organization_id', '=', organizationId)
    .where('run_id', '=', runId)
    .execute();
}
