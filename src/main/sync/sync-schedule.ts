import type { SyncSummary } from '../../shared/api/sync';
import type { RemoteRow } from '../db/index';

// When a remote with background sync on is due (docs/sync.md): never synced yet; its interval
// passed since the last run; or the last run could not reach it and a retry's pause passed, so
// that a sync follows soon after the network returns instead of an interval later. No I/O.

/** Between retries of a remote the last run could not reach. */
export const RETRY_MS = 60_000;

type Schedulable = Pick<RemoteRow, 'background' | 'interval_minutes' | 'last_sync_at' | 'last_sync'>;

function lastOutcome(remote: Schedulable): SyncSummary['outcome'] | null {
  if (remote.last_sync === null) return null;
  try {
    return (JSON.parse(remote.last_sync) as Partial<SyncSummary>).outcome ?? null;
  } catch {
    return null;
  }
}

export function backgroundSyncDue(remote: Schedulable, now: number): boolean {
  if (!remote.background) return false;
  if (remote.last_sync_at === null) return true;
  const since = now - Number(remote.last_sync_at);
  if (lastOutcome(remote) === 'unreachable') return since >= RETRY_MS;
  return since >= remote.interval_minutes * 60_000;
}
