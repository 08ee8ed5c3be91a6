import type { RemoteRow } from '../db/index';
import { backgroundSyncDue } from './sync-schedule';
import { listRemotes } from './remotes/remotes.repository';
import { SyncRuns } from './sync-runs';
import type { SyncDeps } from './sync-run';

// Background sync while a server runs (`scandesk serve`, the desktop app): every tick, each remote
// with background sync on that is due (sync-schedule.ts) is synced, one after another, through
// the same runs as `POST /v1/remotes/:name/sync` (a manual sync going on is joined, one in
// another process is left to it). Failures are the summaries' business: the tick goes on.

export const TICK_MS = 60_000;

export interface BackgroundSync {
  /** One pass over the remotes (what each tick does); a pass already going on is waited for. */
  tick(): Promise<void>;
  /**
   * No more ticks. A run going on is not waited for: closing the store stops it at its next step
   * (sync-runs.ts).
   */
  stop(): void;
}

export function startBackgroundSync(deps: SyncDeps, tickMs = TICK_MS): BackgroundSync {
  let pass: Promise<void> | null = null;
  let stopped = false;

  const syncOne = async (remote: RemoteRow): Promise<void> => {
    try {
      await (
        await SyncRuns.of(deps.db).join(deps, remote)
      ).finished;
    } catch {
      // Busy in another process (409), or the store closing: the next tick sees.
    }
  };

  const tick = (): Promise<void> =>
    (pass ??= (async () => {
      try {
        const now = Date.now();
        for (const remote of await listRemotes(deps.db)) {
          if (stopped) return;
          if (backgroundSyncDue(remote, now)) await syncOne(remote);
        }
      } catch {
        // The store unreachable for a moment: the next tick tries again.
      } finally {
        pass = null;
      }
    })());

  const timer = setInterval(() => void tick(), tickMs);
  timer.unref();
  return {
    tick,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
