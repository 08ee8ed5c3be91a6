import type { SyncConvergence, SyncEvent, SyncOutcome, SyncProblem, SyncSummary } from '../../shared/api/sync';

// What a run counts as it goes, and the summary made from it at the end. No I/O.

export type SyncPhase = Extract<SyncEvent, { type: 'progress' }>['phase'];

/** How a run stopped short, if it did: never reached the remote, or lost it (or its lease) on the way. */
export type SyncStop = 'unreachable' | 'interrupted' | null;

export class SyncTally {
  readonly pulled = { new: 0, changed: 0, unchanged: 0, bytes: 0 };
  /** Our own pushes that came back through the pull (their remote verdict updated). */
  echoed = 0;
  readonly pushed = { sent: 0, waiting: 0 };
  gone = 0;
  readonly errors: SyncProblem[] = [];
  stop: SyncStop = null;
  /** The convergence check's finding, when the run got that far with a Scandesk remote. */
  convergence: SyncConvergence | undefined;

  problem(what: string, why: string): void {
    this.errors.push({ what, why });
  }

  summary(remote: string, startedAt: number, finishedAt: number): SyncSummary {
    return {
      remote,
      outcome: syncOutcome(this.stop, this.errors.length),
      started_at: new Date(startedAt).toISOString(),
      finished_at: new Date(finishedAt).toISOString(),
      pulled: { ...this.pulled },
      pushed: { ...this.pushed },
      gone: this.gone,
      errors: [...this.errors],
      ...(this.convergence ? { convergence: this.convergence } : {}),
    };
  }
}

/**
 * `unreachable` when the remote was never reached (exit 2: try again later); `partial` when it
 * was but something failed on the way, named in the errors (exit 1); `done` otherwise.
 */
export function syncOutcome(stop: SyncStop, errorCount: number): SyncOutcome {
  if (stop === 'unreachable') return 'unreachable';
  return stop === 'interrupted' || errorCount > 0 ? 'partial' : 'done';
}
