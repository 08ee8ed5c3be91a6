import type { SyncEvent, SyncSummary } from '../../shared/api/sync';
import { type Db, storeOf, type StorePart } from '../db/index';
import { claimSync, type SyncDeps } from './sync-run';
import type { RemoteRow } from '../db/index';

// The runs going on in this process, one per remote: a second caller while a run goes on joins it
// (sees its latest progress, then the rest and the summary) instead of starting another. Across
// processes the lease decides (sync-run.ts). The store owns this registry, and closing the store
// stops its runs at their next step and waits for them, before the database closes.

type Listener = (event: SyncEvent) => void;

/** One run, watched by any number of callers. */
export class RunningSync {
  private latest: SyncEvent | null = null;
  private readonly listeners = new Set<Listener>();
  /** The summary, once the run ended (it always ends with one). */
  readonly finished: Promise<SyncSummary>;

  constructor(start: (emit: Listener) => Promise<SyncSummary>) {
    this.finished = start((event) => this.emit(event)).then((summary) => {
      this.emit({ type: 'summary', summary });
      this.listeners.clear();
      return summary;
    });
  }

  /** Calls `listener` with the latest event so far, then each later one; answers how to stop. */
  subscribe(listener: Listener): () => void {
    if (this.latest) listener(this.latest);
    if (this.latest?.type !== 'summary') this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: SyncEvent): void {
    this.latest = event;
    for (const listener of this.listeners) listener(event);
  }
}

export class SyncRuns {
  private readonly runs = new Map<string, Promise<RunningSync>>();
  private readonly closing = new AbortController();

  static of(db: Db): SyncRuns {
    return storeOf(db).part(SYNC_RUNS);
  }

  /**
   * The remote's run in this process, started now if none goes on. Throws (409) when a run in
   * another process holds the remote's lease. The entry is set before the lease is asked for, so
   * two callers at once share one run.
   */
  join(deps: SyncDeps, remote: RemoteRow): Promise<RunningSync> {
    const going = this.runs.get(remote.id);
    if (going) return going;
    if (this.closing.signal.aborted) return Promise.reject(new Error('the store is closing'));
    const started = claimSync(deps, remote).then((claim) => {
      const run = new RunningSync((emit) => claim.run(emit, this.closing.signal));
      void run.finished.finally(() => this.runs.delete(remote.id));
      return run;
    });
    started.catch(() => this.runs.delete(remote.id));
    this.runs.set(remote.id, started);
    return started;
  }

  /** Stops every run at its next step and waits for each to save its summary and release its lease. */
  async close(): Promise<void> {
    this.closing.abort(new Error('the store is closing'));
    const runs = await Promise.allSettled([...this.runs.values()]);
    await Promise.allSettled(runs.flatMap((run) => (run.status === 'fulfilled' ? [run.value.finished] : [])));
  }
}

const SYNC_RUNS: StorePart<SyncRuns> = {
  create: () => new SyncRuns(),
  close: (runs) => runs.close(),
};
