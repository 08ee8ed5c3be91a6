import type { Executor } from '../../db/index';
import { OWN_BUCKET, type ChangeRow, type Position } from './change-cursor';

// The change feed's reads (docs/contract/api.md#sync). Each bucket is one range of one index:
// scans_changes_by_submitter for the caller's own scans, scans_changes_by_organization (which
// carries submitted_by, so "not the caller's" is decided in the index) for an organization's.

/** The organizations whose scans `userId` sees as an owner or admin (docs/contract/auth.md#visibility). */
export async function managedOrganizationIds(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('organization_id')
    .where('user_id', '=', userId)
    .where('role', 'in', ['owner', 'admin'])
    .orderBy('organization_id')
    .execute();
  return rows.map((row) => row.organization_id);
}

/**
 * The query of up to `limit` scans of one bucket of `userId`'s after `after` (from the start
 * without it), in (change_seq, id) order: their own scans, or those of organization `key`
 * submitted by others.
 */
export function bucketQuery(db: Executor, userId: string, key: string, after: Position | undefined, limit: number) {
  let query = db.selectFrom('scans').select(['id', 'change_seq']);
  query =
    key === OWN_BUCKET
      ? query.where('submitted_by', '=', userId)
      : query.where('organization_id', '=', key).where('submitted_by', '<>', userId);
  if (after) {
    query =
      after.id === null
        ? query.where('change_seq', '>', after.seq)
        : query.where((eb) => eb(eb.refTuple('change_seq', 'id'), '>', eb.tuple(after.seq, after.id!)));
  }
  return query.orderBy('change_seq').orderBy('id').limit(limit);
}

/** bucketQuery's rows. */
export async function bucketChanges(
  db: Executor,
  userId: string,
  key: string,
  after: Position | undefined,
  limit: number,
): Promise<ChangeRow[]> {
  const rows = await bucketQuery(db, userId, key, after, limit).execute();
  return rows.map((row) => ({ id: row.id, change_seq: Number(row.change_seq) }));
}

/** How many bucket sets are kept per user: the newest, by when a cursor last named them as new. */
export const BUCKET_SETS_KEPT = 50;

/** The keys of `userId`'s bucket sets among `digests` (docs/sync.md#change-feed-and-cursor). */
export async function findBucketSets(
  db: Executor,
  userId: string,
  digests: readonly string[],
): Promise<Map<string, string[]>> {
  if (digests.length === 0) return new Map();
  const rows = await db
    .selectFrom('sync_bucket_sets')
    .select(['digest', 'keys'])
    .where('user_id', '=', userId)
    .where('digest', 'in', digests)
    .execute();
  return new Map(rows.map((row) => [row.digest, JSON.parse(row.keys) as string[]]));
}

/**
 * Keeps a bucket set of `userId`'s under its digest (or marks it used again), and forgets all
 * but the newest BUCKET_SETS_KEPT: a cursor naming a forgotten one is refused and read again.
 */
export async function keepBucketSet(
  db: Executor,
  userId: string,
  digest: string,
  keys: readonly string[],
  now: number,
): Promise<void> {
  await db
    .insertInto('sync_bucket_sets')
    .values({ user_id: userId, digest, keys: JSON.stringify(keys), used_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'digest']).doUpdateSet({ used_at: now }))
    .execute();
  const kept = db
    .selectFrom('sync_bucket_sets')
    .select('digest')
    .where('user_id', '=', userId)
    .orderBy('used_at', 'desc')
    .orderBy('digest')
    .limit(BUCKET_SETS_KEPT);
  await db.deleteFrom('sync_bucket_sets').where('user_id', '=', userId).where('digest', 'not in', kept).execute();
}
