// Tells background sync when to try now (docs/sync.md#a-run): when the network comes back, and
// when the machine wakes from sleep (timers do not run while it sleeps, and a network lost on the
// way is often found again only then). Electron-free so that a plain Node test drives it; main.ts
// gives it Electron's `net.isOnline` and `powerMonitor`. `isOnline` says only that the system has
// a network (a captive portal counts): it is a hint to try, and the run decides what is reachable.

export interface NetworkSignals {
  /** Whether the system has a network connection now. */
  isOnline(): boolean;
  /** Calls `listener` each time the machine resumes from sleep; answers how to stop. */
  onResume(listener: () => void): () => void;
}

/** How often the connection is looked at: a network back is noticed within this. */
export const ONLINE_POLL_MS = 5_000;

/** Calls `nudge` when the network comes back (offline at one look, online at the next) or the machine resumes; answers stop. */
export function watchNetwork(signals: NetworkSignals, nudge: () => void, pollMs = ONLINE_POLL_MS): () => void {
  let online = signals.isOnline();
  const timer = setInterval(() => {
    const now = signals.isOnline();
    if (now && !online) nudge();
    online = now;
  }, pollMs);
  // The app's own handles keep it up, never this.
  timer.unref();
  const stopResume = signals.onResume(nudge);
  return () => {
    clearInterval(timer);
    stopResume();
  };
}
