import type { SyncSummary } from '../../../shared/api/sync';
import type { Db, RemoteRow } from '../../db/index';
import { DomainError } from '../../domain-error';
import { listRemotes } from '../remotes/remotes.repository';
import { SyncRuns } from '../sync-runs';
import { nextSync } from './next-sync';
import { countFailure, scheduled, type Seen } from './scheduled-remote';

// Background sync while a server runs (README.md here): reads the remotes, asks next-sync.ts
// which is due, runs it, and asks again. A run is the one the viewer's Sync now and `scandesk
// sync` through the server join (sync-runs.ts), so a click during a background run watches it
// instead of starting another. Its timers never keep the process alive; stop() schedules nothing
// more, and closing the store stops a run that is going (the store owns the runs).

/** The most a background scheduler waits before reading the remotes again: one added or switched on is noticed then. */
export const DEFAULT_POLL_MS = 60_000;

/** Where a run's one line goes: the server's logger (its redaction), or a test's list. */
export interface BackgroundLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface BackgroundSyncDeps {
  db: Db;
  /** Where the remotes' token files are. */
  dataDir: string;
  log: BackgroundLog;
  /**
   * One sync of `remote`: by default the store's run of it, joined if one goes on. What it
   * answers or throws is only logged: the run saves its summary on the remote row, which the
   * schedule reads.
   */
  sync?: (remote: RemoteRow) => Promise<SyncSummary>;
  pollMs?: number;
  now?: () => number;
}

export interface BackgroundSync {
  /** Schedules nothing more; a run going on ends when the store closes (it saves its summary). */
  stop(): void;
  /** Resolves when the turn going on (reading the remotes, a run) has ended: for tests. */
  settled(): Promise<void>;
  /**
   * The network came back, or the machine woke (the desktop shell says so): remotes whose last
   * run could not reach them are tried now instead of at their retry, and the schedule looks again.
   */
  nudge(): void;
}

async function storeRun(deps: BackgroundSyncDeps, remote: RemoteRow): Promise<SyncSummary> {
  const run = await SyncRuns.of(deps.db).join({ db: deps.db, dataDir: deps.dataDir }, remote);
  return run.finished;
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
  let nudgedAt: number | null = null;
  /** A nudge came while a turn was going on: look again when it ends. */
  let lookAgain = false;

  const wake = (at: number | null): void => {
    if (stopping.signal.aborted) return;
    const delay = at === null ? pollMs : Math.min(Math.max(at - now(), 0), pollMs);
    timer = setTimeout(() => void take(), delay);
    // A server's own handles keep the process up; the schedule alone never does.
    timer.unref();
  };

  const sync = deps.sync ?? ((remote: RemoteRow) => storeRun(deps, remote));

  const runOne = async (row: RemoteRow): Promise<void> => {
    const started = performance.now();
    try {
      logRun(log, await sync(row), performance.now() - started);
    } catch (error) {
      // Not started (another process holds the remote, the store is closing) or broken.
      countFailure(seen, row.id, now());
      if (stopping.signal.aborted) return;
      const why = error instanceof Error ? error.message : String(error);
      const line = `background sync of ${row.name} did not run: ${why}`;
      // Another process sharing the store got the remote first: its run is the one that counts.
      if (error instanceof DomainError && error.code === 'conflict') log.info({ remote: row.name, problem: why }, line);
      else log.warn({ remote: row.name, problem: why }, line);
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
      nudgedAt,
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
    if (ran || lookAgain) {
      lookAgain = false;
      clearTimeout(timer);
      wake(now());
    }
  };

  wake(now());
  return {
    stop() {
      stopping.abort();
      clearTimeout(timer);
    },
    async settled() {
      await turn;
    },
    nudge() {
      if (stopping.signal.aborted) return;
      nudgedAt = now();
      if (turn) {
        lookAgain = true;
        return;
      }
      clearTimeout(timer);
      wake(now());
    },
  };
}
