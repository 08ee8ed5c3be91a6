import type { SyncOutcome } from '../../../shared/api/sync';

// When the background scheduler syncs which remote (README.md here): pure, so every rule of the
// schedule is a test and background-sync.ts only reads the remotes, waits and runs.

/** The first retry after a run that could not reach its remote: a returning network is noticed soon. */
export const FIRST_RETRY_MS = 30_000;

/** What the schedule needs of one remote. */
export interface ScheduledRemote {
  id: string;
  name: string;
  background: boolean;
  intervalMinutes: number;
  /** Epoch ms the last run (background or not) ended; null: never synced. */
  lastSyncAt: number | null;
  lastOutcome: SyncOutcome | null;
  /**
   * Runs in a row, the last included, that ended `unreachable` (background-sync.ts counts them as
   * it sees them); 0 when the last ended otherwise.
   */
  unreachableStreak: number;
  /** Epoch ms until which a run (this process's or another's) holds the remote; null: none. */
  leaseUntil: number | null;
}

export interface NextSync {
  /** The remote to sync now; null: none is due. */
  due: ScheduledRemote | null;
  /** Epoch ms of the next remote's turn after `due`; null: none has one (no background remote). */
  wakeAt: number | null;
}

/**
 * How long after its last run a remote is due: its interval, or after an `unreachable` one 30 s,
 * doubling with each unreachable run in a row up to the interval.
 */
export function retryDelayMs(
  remote: Pick<ScheduledRemote, 'intervalMinutes' | 'lastOutcome' | 'unreachableStreak'>,
): number {
  const interval = remote.intervalMinutes * 60_000;
  if (remote.lastOutcome !== 'unreachable') return interval;
  const doublings = Math.min(Math.max(remote.unreachableStreak, 1) - 1, 30);
  return Math.min(interval, FIRST_RETRY_MS * 2 ** doublings);
}

/**
 * When a background remote is due: now when it never synced; else its delay after the last run, or
 * the last nudge (`nudgedAt`: the network came back) when that run could not reach it.
 * A last run stamped later than `now` (the clock went back) counts from now, so a clock change
 * never holds a remote back by more than its delay.
 */
export function dueAt(remote: ScheduledRemote, now: number, nudgedAt: number | null = null): number | null {
  if (!remote.background) return null;
  let base = remote.lastSyncAt === null ? null : Math.min(remote.lastSyncAt, now) + retryDelayMs(remote);
  // The network came back (or the machine woke) after a run that could not reach the remote: try now.
  if (base !== null && nudgedAt !== null && remote.lastOutcome === 'unreachable' && nudgedAt > remote.lastSyncAt!) {
    base = Math.min(base, nudgedAt);
  }
  // A remote another run holds is looked at again once that lease ends.
  const lease = remote.leaseUntil !== null && remote.leaseUntil > now ? remote.leaseUntil : null;
  if (base === null) return lease ?? now;
  return lease === null ? base : Math.max(base, lease);
}

/**
 * The remote to sync now and when to look again. Never two at once: while any remote's lease is
 * held (a run the viewer or `scandesk sync` started, here or in another process), nothing is due
 * and the schedule looks again when the first lease would end; the caller runs one remote at a
 * time and asks again when it ends. Of the due remotes, the one waiting longest goes first, so a
 * remote that keeps failing cannot starve the others; ties by name. `nudgedAt`: see dueAt.
 */
export function nextSync(remotes: readonly ScheduledRemote[], now: number, nudgedAt: number | null = null): NextSync {
  const leases = remotes.flatMap((remote) =>
    remote.leaseUntil !== null && remote.leaseUntil > now ? [remote.leaseUntil] : [],
  );
  const turns = remotes
    .map((remote) => ({ remote, at: dueAt(remote, now, nudgedAt) }))
    .filter((turn): turn is { remote: ScheduledRemote; at: number } => turn.at !== null)
    .sort((a, b) => a.at - b.at || (a.remote.name < b.remote.name ? -1 : a.remote.name > b.remote.name ? 1 : 0));
  const first = turns[0];
  if (first === undefined) return { due: null, wakeAt: null };
  if (leases.length > 0) return { due: null, wakeAt: Math.max(first.at, Math.min(...leases)) };
  if (first.at > now) return { due: null, wakeAt: first.at };
  return { due: first.remote, wakeAt: turns[1]?.at ?? null };
}
