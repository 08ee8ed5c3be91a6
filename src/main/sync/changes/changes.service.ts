import type { SyncChanges, SyncChangesQuery } from '../../../shared/api/sync';
import { type Db, readChangeSequence } from '../../db/index';
import { DomainError } from '../../domain-error';
import { countVisibleScans } from '../../scans/scans.repository';
import {
  bucketSetDigest,
  decodeCursor,
  encodeCursor,
  groupPositions,
  INLINE_KEYS,
  nextPage,
  OWN_BUCKET,
  spreadGroups,
  type CursorGroup,
  type Position,
} from './change-cursor';
import { bucketChanges, findBucketSets, keepBucketSet, managedOrganizationIds } from './changes.repository';

const DEFAULT_LIMIT = 500;

const refused = (why: string): DomainError =>
  new DomainError('validation_failed', `cursor ${why}: read the feed again from the start, without one`, [
    { field: 'cursor', message: why },
  ]);

/**
 * The positions a cursor holds, once it is known to be this store's and this caller's; refused
 * otherwise (docs/contract/api.md#sync): a malformed one, one of another store (its sequence id), of
 * another user, one ahead of this store (a store restored from an older backup), or one naming a
 * bucket set this store no longer keeps. Also the digests it named, which are kept.
 */
async function positionsOf(
  db: Db,
  text: string,
  sequence: { id: string; lastSeq: number },
  userId: string,
): Promise<{ positions: Map<string, Position>; known: Set<string> }> {
  const cursor = decodeCursor(text);
  if (!cursor) throw refused('is not one this server gave');
  if (cursor.sequence !== sequence.id) throw refused("is another store's");
  if (cursor.user !== userId) throw refused("is another user's");
  if (cursor.groups.some((group) => group.position.seq > sequence.lastSeq)) throw refused('is ahead of this store');
  const digests = cursor.groups.flatMap(({ keys }) => (Array.isArray(keys) ? [] : [keys.digest]));
  const sets = await findBucketSets(db, userId, digests);
  const positions = spreadGroups(cursor.groups, (digest) => sets.get(digest));
  if (!positions) throw refused('names buckets this server no longer keeps');
  return { positions, known: new Set(sets.keys()) };
}

/**
 * The cursor's groups for `buckets`: the keys themselves while there are few buckets, else each
 * group's digest, its keys kept on this store unless the cursor just read named them.
 */
async function cursorGroups(
  db: Db,
  userId: string,
  buckets: ReadonlyMap<string, Position>,
  known: ReadonlySet<string>,
): Promise<CursorGroup[]> {
  const groups = groupPositions(buckets);
  if (buckets.size <= INLINE_KEYS) return groups;
  const named: CursorGroup[] = [];
  for (const { position, keys } of groups) {
    const digest = bucketSetDigest(keys);
    if (!known.has(digest)) await keepBucketSet(db, userId, digest, keys, Date.now());
    named.push({ position, keys: { digest } });
  }
  return named;
}

/**
 * A page of the scans `userId` can see that changed after the cursor (docs/contract/api.md#sync):
 * each bucket read from its own position, at most `limit + 1` rows each, merged in (change_seq,
 * id) order. Buckets are read one statement each; each is consistent on its own, which is all a
 * position needs, since a bucket's scans are never another's.
 */
export async function readChanges(db: Db, userId: string, query: SyncChangesQuery): Promise<SyncChanges> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const sequence = await readChangeSequence(db);
  const { positions, known } =
    query.cursor === undefined
      ? { positions: new Map<string, Position>(), known: new Set<string>() }
      : await positionsOf(db, query.cursor, sequence, userId);
  const keys = [OWN_BUCKET, ...(await managedOrganizationIds(db, userId))];
  const reads = [];
  for (const key of keys)
    reads.push({ key, rows: await bucketChanges(db, userId, key, positions.get(key), limit + 1) });
  const page = nextPage(positions, reads, limit);
  return {
    changes: page.changes,
    cursor: encodeCursor({
      sequence: sequence.id,
      user: userId,
      groups: await cursorGroups(db, userId, page.buckets, known),
    }),
    more: page.more,
    total: await countVisibleScans(db, userId, {}),
  };
}
