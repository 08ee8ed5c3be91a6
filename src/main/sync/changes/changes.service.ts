import type { SyncChanges, SyncChangesQuery } from '../../../shared/api/sync';
import { type Db, readChangeSequence } from '../../db/index';
import { DomainError } from '../../domain-error';
import { countVisibleScans } from '../../scans/scans.repository';
import { decodeCursor, encodeCursor, nextPage, OWN_BUCKET, type ChangeCursor, type Position } from './change-cursor';
import { bucketChanges, managedOrganizationIds } from './changes.repository';

const DEFAULT_LIMIT = 500;

const refused = (why: string): DomainError =>
  new DomainError('validation_failed', `cursor ${why}: read the feed again from the start, without one`, [
    { field: 'cursor', message: why },
  ]);

/**
 * The positions a cursor holds, once it is known to be this store's and this caller's; refused
 * otherwise (docs/contract/api.md#sync): a malformed one, one of another store (its sequence id), of
 * another user, or one ahead of this store (a store restored from an older backup).
 */
function positionsOf(text: string, sequence: { id: string; lastSeq: number }, userId: string): Map<string, Position> {
  const cursor: ChangeCursor | null = decodeCursor(text);
  if (!cursor) throw refused('is not one this server gave');
  if (cursor.sequence !== sequence.id) throw refused("is another store's");
  if (cursor.user !== userId) throw refused("is another user's");
  for (const position of cursor.buckets.values()) {
    if (position.seq > sequence.lastSeq) throw refused('is ahead of this store');
  }
  return cursor.buckets;
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
  const positions =
    query.cursor === undefined ? new Map<string, Position>() : positionsOf(query.cursor, sequence, userId);
  const keys = [OWN_BUCKET, ...(await managedOrganizationIds(db, userId))];
  const reads = [];
  for (const key of keys)
    reads.push({ key, rows: await bucketChanges(db, userId, key, positions.get(key), limit + 1) });
  const page = nextPage(positions, reads, limit);
  return {
    changes: page.changes,
    cursor: encodeCursor({ sequence: sequence.id, user: userId, buckets: page.buckets }),
    more: page.more,
    total: await countVisibleScans(db, userId, {}),
  };
}
