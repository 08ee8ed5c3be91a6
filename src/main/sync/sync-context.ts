import type { SyncEvent } from '../../shared/api/sync';
import type { Db, RemoteRow } from '../db/index';
import type { ImportLimits } from '../evidence/import/import-limits';
import type { RemoteClient } from './client/remote-client';
import type { SyncPhase, SyncTally } from './sync-tally';

/** What every stage of a run works with (sync-run.ts makes it). */
export interface SyncContext {
  db: Db;
  remote: RemoteRow;
  client: RemoteClient;
  /** The run's claim on the remote row: every write of the cursor names it (sync-state.repository.ts). */
  leaseOwner: string;
  limits: ImportLimits;
  /** A private temporary folder of this run, for the packages it downloads; removed at its end. */
  workDir: string;
  tally: SyncTally;
  progress: SyncProgress;
  /** Aborted when the store closes under the run: a stage stops at its next step. */
  signal: AbortSignal;
}

/**
 * Progress events of a run, at most one per interval (a pull of 100,000 scans from a plain
 * upstream stores them one by one) besides the first and last of each phase. Bytes count every
 * body received in the run.
 */
export class SyncProgress {
  bytes = 0;
  private lastAt = -Infinity;

  constructor(
    private readonly emit: (event: SyncEvent) => void,
    private readonly intervalMs = 250,
    private readonly now: () => number = () => performance.now(),
  ) {}

  report(phase: SyncPhase, done: number, total: number | null, force = false): void {
    const now = this.now();
    if (!force && now - this.lastAt < this.intervalMs) return;
    this.lastAt = now;
    this.emit({ type: 'progress', phase, done, total, bytes: this.bytes });
  }
}
