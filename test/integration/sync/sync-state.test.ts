/**
 * A remote's sync state: one lease holder at a time, across processes (the claim is one
 * conditional update); a deadline that passed frees it; the cursor moves only under the lease, in
 * the caller's transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../src/main/db/index';
import {
  LeaseLost,
  releaseLease,
  renewLease,
  saveCursor,
  takeLease,
} from '../../../src/main/sync/sync-state.repository';
import { insertRemote } from '../../helpers/sync-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';

const NOW = 1_000_000;

describe('sync state', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  const cursorOf = async (id: string) =>
    await ctx.db.selectFrom('remotes').select(['cursor', 'lease_owner']).where('id', '=', id).executeTakeFirstOrThrow();

  it('gives the lease to one claimant at a time, until it is released or its deadline passes', async () => {
    const remote = await insertRemote(ctx.db, { user_id: ctx.owner.id });
    expect(await takeLease(ctx.db, remote.id, 'a', NOW, NOW + 60_000)).toBe(true);
    expect(await takeLease(ctx.db, remote.id, 'b', NOW + 1, NOW + 60_001)).toBe(false);
    // its own deadline moves on; another's renewal does nothing
    expect(await renewLease(ctx.db, remote.id, 'a', NOW + 120_000)).toBe(true);
    expect(await renewLease(ctx.db, remote.id, 'b', NOW + 120_000)).toBe(false);
    expect(await takeLease(ctx.db, remote.id, 'b', NOW + 100_000, NOW + 160_000)).toBe(false);
    // a stalled holder's deadline passed: the next claimant takes over, and the stalled one cannot renew
    expect(await takeLease(ctx.db, remote.id, 'b', NOW + 120_001, NOW + 180_000)).toBe(true);
    expect(await renewLease(ctx.db, remote.id, 'a', NOW + 240_000)).toBe(false);
    // releasing someone else's lease does nothing
    await releaseLease(ctx.db, remote.id, 'a');
    expect((await cursorOf(remote.id)).lease_owner).toBe('b');
    await releaseLease(ctx.db, remote.id, 'b');
    expect((await cursorOf(remote.id)).lease_owner).toBeNull();
    expect(await takeLease(ctx.db, remote.id, 'c', NOW, NOW + 1)).toBe(true);
  });

  it('lets many concurrent claimants win once', async () => {
    const remote = await insertRemote(ctx.db, { user_id: ctx.owner.id });
    const won = await Promise.all(
      Array.from({ length: 8 }, (_, n) => takeLease(ctx.db, remote.id, `claimant-${n}`, NOW, NOW + 60_000)),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('moves the cursor only under the lease, and a refusal rolls the transaction back', async () => {
    const remote = await insertRemote(ctx.db, { user_id: ctx.owner.id });
    expect(await takeLease(ctx.db, remote.id, 'a', NOW, NOW + 60_000)).toBe(true);
    await inTransaction(ctx.db, (trx) => saveCursor(trx, remote.id, 'a', 'c1'));
    expect((await cursorOf(remote.id)).cursor).toBe('c1');

    const org = `org_lease_${remote.id}`;
    const attempt = inTransaction(ctx.db, async (trx) => {
      // a batch the transaction stored, then the cursor of someone who no longer holds the lease
      await trx
        .insertInto('organizations')
        .values({ id: org, name: 'batch', plan: 'free', created_at: new Date(NOW).toISOString() })
        .execute();
      await saveCursor(trx, remote.id, 'b', 'c2');
    });
    await expect(attempt).rejects.toBeInstanceOf(LeaseLost);
    expect((await cursorOf(remote.id)).cursor).toBe('c1');
    expect(
      await ctx.db.selectFrom('organizations').select('id').where('id', '=', org).executeTakeFirst(),
    ).toBeUndefined();
  });
});
