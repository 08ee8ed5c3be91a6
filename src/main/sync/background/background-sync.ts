import type { SyncOutcome, SyncSummary } from '../../../shared/api/sync';
import type { Db, RemoteRow } from '../../db/index';
import { listRemotes } from '../remotes/remotes.repository';
import { nextSync, type ScheduledRemote } from './next-sync';

// Background sync while a server runs (README.md here): reads the remotes, asks next-sync.ts
// which is due, runs it, and asks again. Its timers never keep the process alive, and stop()
// (the server closing) ends a run that is going before the store closes.

/** The most a background scheduler waits before reading the remotes again: one added or switched on is noticed then. */
export const DEFAULT_POLL_MS = 60_000;

/** Where a run's one line goes: the server's logger (its redaction), or a test's list. */
export interface BackgroundLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface BackgroundSyncDeps {
  db: Db;
  /**
   * One sync of `remote`, joining one already going in this process; what it returns or throws is
   * only logged (the run saves its own summary on the remote row, which the schedule reads).
   */
  sync(remote: RemoteRow, signal: AbortSignal): Promise<SyncSummary>;
  log: BackgroundLog;
  pollMs?: number;
  now?: () => number;
}

export interface BackgroundSync {
  /** Ends the run that is going (its summary says it was stopped) and schedules nothing more. */
  stop(): Promise<void>;
}

/** What the scheduler remembers of a remote between readings: how many runs in a row could not reach it. */
interface Seen {
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

/** The run's one log line: counts and the first problem, never the token (no message carries it). */
function logRun(log: BackgroundLog, summary: SyncSummary, ms: number): void {
  const { pulled, pushed, gone, errors } = summary;
  const fields = {
    remote: summary.remote,
    outcome: summary.outcome,
    pulled_new: pulled.new,
    pulled_changed: pulled.changed,
    pushed: pushed.sent,
    waiting: pushed.waiting,
    gone,
    ms: Math.round(ms),
    ...(errors[0] ? { problem: `${errors[0].what}: ${errors[0].why}`, problems: errors.length } : {}),
  };
  const line =
    `background sync of ${summary.remote}: ${summary.outcome}, ${pulled.new} new, ${pulled.changed} changed, ` +
    `${pushed.sent} pushed, ${pushed.waiting} waiting`;
  if (summary.outcome === 'done') log.info(fields, line);
  else log.warn(fields, errors[0] ? `${line} (${errors[0].what}: ${errors[0].why})` : line);
}

export function startBackgroundSync(deps: BackgroundSyncDeps): BackgroundSync {
  const { db, log } = deps;
  const pollMs = deps.pollMs ?? DEFAULT_POLL_MS;
  const now = deps.now ?? Date.now;
  const seen = new Map<string, Seen>();
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<boolean> | undefined;

  const wake = (at: number | null): void => {
    if (stopping.signal.aborted) return;
    const delay = at === null ? pollMs : Math.min(Math.max(at - now(), 0), pollMs);
    timer = setTimeout(() => void take(), delay);
    // A server's own handles keep the process up; the schedule alone never does.
    timer.unref();
  };

  const runOne = async (row: RemoteRow): Promise<void> => {
    const started = performance.now();
    try {
      logRun(log, await deps.sync(row, stopping.signal), performance.now() - started);
    } catch (error) {
      const memory = seen.get(row.id);
      if (memory) {
        memory.failedAt = now();
        memory.unreachableStreak += 1;
      }
      const why = error instanceof Error ? error.message : String(error);
      log.warn({ remote: row.name, problem: why }, `background sync of ${row.name} did not run: ${why}`);
    }
  };

  // One turn: read the remotes and run the one due, if any (true when it ran).
  const oneTurn = async (): Promise<boolean> => {
    let rows: RemoteRow[];
    try {
      rows = await listRemotes(db);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      if (!stopping.signal.aborted) log.warn({ problem: why }, `background sync could not read the remotes: ${why}`);
      wake(null);
      return false;
    }
    const { due, wakeAt } = nextSync(
      rows.map((row) => scheduled(row, seen)),
      now(),
    );
    if (due === null) {
      wake(wakeAt);
      return false;
    }
    await runOne(rows.find((row) => row.id === due.id)!);
    return true;
  };

  // After a run, look again at once (another remote may be due by now); otherwise oneTurn has
  // set the timer for the next remote's turn or the poll, whichever comes first.
  const take = async (): Promise<void> => {
    if (stopping.signal.aborted || turn) return;
    turn = oneTurn();
    const ran = await turn;
    turn = undefined;
    if (ran) wake(now());
  };

  wake(now());
  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await turn;
    },
  };
}
