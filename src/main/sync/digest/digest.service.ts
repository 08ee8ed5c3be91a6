import type { SyncDigest, SyncDigestQuery } from '../../../shared/api/sync';
import type { Db } from '../../db/index';
import { digestOfDays, foldDays } from './day-digest';
import { visibleDayRows } from './digest.repository';

/**
 * What `userId` can see, per organization they are a member of: its scan count and a digest of its
 * days; the days themselves for the one organization asked for (docs/contract/api.md#sync-digest).
 */
export async function readDigest(db: Db, userId: string, query: SyncDigestQuery): Promise<SyncDigest> {
  const folded = foldDays(await visibleDayRows(db, userId, query.organization_id));
  const organizations = [...folded]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([organization_id, days]) => ({
      organization_id,
      scans: days.reduce((sum, day) => sum + day.scans, 0),
      digest: digestOfDays(days),
      ...(query.organization_id === undefined ? {} : { days }),
    }));
  return { organizations };
}
