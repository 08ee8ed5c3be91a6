import type { SyncOutcome, SyncSummary } from '../../../shared/api/sync';
import type { RemoteRow } from '../../db/index';
import type { ScheduledRemote } from './next-sync';

// A remote row as the schedule sees it (next-sync.ts), with what the scheduler remembers between
// readings: how many runs in a row could not reach the remote, and a run that failed before it
// could save a summary. Pure but for updating that memory.

/** What the scheduler remembers of a remote between readings: how many runs in a row could not reach it. */
export interface Seen {
  /** The `last_sync_at` last counted. */
  at: number | null;
  unreachableStreak: number;
  /** A run that threw before saving a summary: scheduled as an unreachable one at that time. */
  failedAt: number | null;
}

function outcomeOf(row: RemoteRow): SyncOutcome | null {
  if (row.last_sync === null) return null;
  try {
    return (JSON.parse(row.last_sync) as Partial<SyncSummary>).outcome ?? null;
  } catch {
    return null;
  }
}

/** A remote row as the schedule sees it, counting a run it has not seen yet into `seen`. */
export function scheduled(row: RemoteRow, seen: Map<string, Seen>): ScheduledRemote {
  const memory = seen.get(row.id) ?? { at: null, unreachableStreak: 0, failedAt: null };
  let outcome = outcomeOf(row);
  if (row.last_sync_at !== null && row.last_sync_at !== memory.at) {
    memory.at = row.last_sync_at;
    memory.unreachableStreak = outcome === 'unreachable' ? memory.unreachableStreak + 1 : 0;
    memory.failedAt = null;
  }
  seen.set(row.id, memory);
  let lastSyncAt = row.last_sync_at;
  if (memory.failedAt !== null && (lastSyncAt === null || memory.failedAt > lastSyncAt)) {
    lastSyncAt = memory.failedAt;
    outcome = 'unreachable';
  }
  return {
    id: row.id,
    name: row.name,
    background: row.background === 1,
    intervalMinutes: row.interval_minutes,
    lastSyncAt,
    lastOutcome: outcome,
    unreachableStreak: memory.unreachableStreak,
    leaseUntil: row.lease_until,
  };
}

/** A run of the remote threw before it saved a summary: it waits as after an unreachable run, so a failure that repeats cannot spin. */
export function countFailure(seen: Map<string, Seen>, remoteId: string, at: number): void {
  const memory = seen.get(remoteId) ?? { at: null, unreachableStreak: 0, failedAt: null };
  memory.failedAt = at;
  memory.unreachableStreak += 1;
  seen.set(remoteId, memory);
}
