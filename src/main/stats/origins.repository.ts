import { LOCAL_ORIGIN, type OriginList } from '../../shared/api/origins';
import type { Executor } from '../db/index';
import { visibleInRollup } from '../scans/scans.repository';

/**
 * The origins of the scans the user can see, with how many scans each, summed from the
 * scan_counts rollup (docs/contract/api.md#origins): `local` always, then by name each remote
 * whose scans they see and each remote that fills their store, scans or not yet.
 */
export async function visibleOrigins(db: Executor, userId: string): Promise<OriginList> {
  const [counts, remotes] = await Promise.all([
    db
      .selectFrom('scan_counts')
      .where(visibleInRollup('scan_counts', userId))
      .select((eb) => ['scan_counts.origin_key', eb.fn.sum<number | string>('scan_counts.scans').as('scans')])
      .groupBy('scan_counts.origin_key')
      .execute(),
    // A store has a few remotes: all of them, rather than a join per key.
    db.selectFrom('remotes').select(['id', 'name', 'user_id']).execute(),
  ]);
  const scansByKey = new Map(counts.map((row) => [row.origin_key, Number(row.scans)]));
  const shown = remotes
    .filter((remote) => scansByKey.has(remote.id) || remote.user_id === userId)
    .map((remote) => ({ origin: remote.name, scans: scansByKey.get(remote.id) ?? 0 }))
    .sort((a, b) => (a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0));
  return { origins: [{ origin: LOCAL_ORIGIN, scans: scansByKey.get('') ?? 0 }, ...shown] };
}
