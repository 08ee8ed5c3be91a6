import type { ControlledTransaction, Transaction } from 'kysely';
import type { Database, Db, Executor } from './database';
import { classifyDbError, isRetryable } from './db-errors';
import { dialectOf } from './dialect';
import { withJournalsInMemory } from './sqlite/journal-switches';
import { MAX_ATTEMPTS } from './transaction';

/**
 * A write to run in a group commit. It may run more than once (see commitBatch), each time in a
 * transaction rolled back before the next: it must do nothing outside `trx` that cannot be repeated.
 */
export type BatchedWork<T> = (trx: Transaction<Database>) => Promise<T>;

/**
 * Writes that the works of a group commit leave to its end, to be written together in one go after
 * the last work and before the commit (a multi-row statement instead of one per work). Only
 * writes that no other work of the batch reads may wait: works are the submits of new scans.
 */
export interface DeferredWrites {
  /** Writes everything deferred; runs once, inside the transaction. */
  flush(): Promise<void>;
}

/** The deferred writes of each transaction that runs a batch's works together, by kind: gone with the transaction. */
const deferredWrites = new WeakMap<Executor, Map<object, DeferredWrites>>();

/**
 * The deferred writes of kind `kind` of the group commit running on `trx`, made by `create` the
 * first time; undefined where writes cannot wait (outside a group commit, or in the savepoint of
 * a batch run apart), and then the caller writes at once.
 */
export function deferredWritesOf<T extends DeferredWrites>(
  trx: Executor,
  kind: object,
  create: () => T,
): T | undefined {
  const writes = deferredWrites.get(trx);
  if (!writes) return undefined;
  let found = writes.get(kind) as T | undefined;
  if (!found) writes.set(kind, (found = create()));
  return found;
}

interface Pending {
  work: BatchedWork<unknown>;
  /** Batches this work has been part of without settling. */
  attempts: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Works per transaction at most: bounds how long one batch holds the connection. */
const MAX_BATCH = 64;
const SAVEPOINT = 'batched_work';

/**
 * Group commit. Works that arrive while a transaction is running are queued and then run
 * together in the next one: one that throws is rolled back alone and rejects alone (the batch
 * runs again, each work in a savepoint of its own); the others commit together. Every promise
 * settles only after its transaction committed (or failed), so an answer sent on resolve is never
 * for a write that a crash could still lose. A lone work runs at once, in a transaction of its
 * own; under load the commit, the costliest step of a small write, is shared by every work in the
 * batch.
 */
export class WriteBatcher {
  private readonly queue: Pending[] = [];
  private draining = false;
  private idle: (() => void)[] = [];

  private readonly postgres: boolean;

  constructor(private readonly db: Db) {
    this.postgres = dialectOf(db) === 'postgres';
  }

  run<T>(work: BatchedWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, attempts: 0, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // better-sqlite3 is synchronous: while a batch runs no request is read, so without
        // yielding to I/O first every batch would hold one work. setImmediate lets the requests
        // already received in this turn of the event loop join.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.runBatch(this.queue.splice(0, MAX_BATCH));
    } finally {
      this.draining = false;
      const idle = this.idle;
      this.idle = [];
      for (const resolve of idle) resolve();
    }
  }

  /** Resolves once every work queued so far has settled. */
  settled(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Settles a work that failed, or, on PostgreSQL, queues it again when it lost a race with
   * another server process (deadlock, serialization failure) and has attempts left. SQLite
   * transactions hold the write lock from BEGIN, so there they never lose one.
   */
  private failed(pending: Pending, error: unknown): void {
    pending.attempts += 1;
    const retry = this.postgres && pending.attempts < MAX_ATTEMPTS && isRetryable(classifyDbError(error));
    if (retry) this.queue.push(pending);
    else pending.reject(error);
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    const commit = async (db: Db): Promise<void> => {
      if (!(await this.commitBatch(db, batch, 'together'))) await this.commitBatch(db, batch, 'apart');
    };
    if (this.postgres) return commit(this.db);
    let started = false;
    await withJournalsInMemory(this.db, (connection) => {
      started = true;
      return commit(connection);
    }).catch((error: unknown) => {
      // Before the batch ran (the store closed under it, say): it fails as a failed BEGIN would.
      // After it, the batch has settled, and only handing the setting back failed: the
      // connection is then broken anyway, and its next use says so.
      if (!started) for (const pending of batch) this.failed(pending, error);
    });
  }

  /**
   * Runs `batch` in one transaction and commits it. `together`, the works run one after another
   * with nothing between them; if one of several throws, what it wrote cannot be told from what
   * the others wrote, so the transaction is rolled back, nothing is settled, and the answer is
   * false: run the batch again `apart`, each work in a savepoint of its own, where the one that
   * throws is rolled back alone. Savepoints are not free (two statements per work, and the pages
   * a work changes copied to the savepoint's journal), and works rarely throw.
   */
  private async commitBatch(db: Db, batch: Pending[], mode: 'together' | 'apart'): Promise<boolean> {
    const outcomes: Outcome[] = [];
    const trx = await db
      .startTransaction()
      .execute()
      .catch((error: unknown) => {
        for (const pending of batch) this.failed(pending, error);
      });
    if (!trx) return true;
    const deferred = new Map<object, DeferredWrites>();
    if (mode === 'together') deferredWrites.set(trx, deferred);
    try {
      for (const pending of batch) {
        const outcome = await (mode === 'apart' ? inSavepoint(trx, pending.work) : outcomeOf(pending.work, trx));
        if (!outcome.ok && mode === 'together') {
          await rollBack(trx);
          if (batch.length > 1) return false;
          this.failed(pending, outcome.value);
          return true;
        }
        outcomes.push(outcome);
      }
      // What the works deferred, together: if it fails, which work's rows made it fail cannot be
      // told either, and the batch runs again apart, where nothing is deferred.
      const flushed = await outcomeOf(() => flushAll(deferred), trx);
      if (!flushed.ok) {
        await rollBack(trx);
        if (batch.length > 1) return false;
        this.failed(batch[0]!, flushed.value);
        return true;
      }
      await trx.commit().execute();
    } catch (error) {
      // A savepoint command or the commit failed: nothing of this batch is stored.
      await rollBack(trx);
      for (const pending of batch) this.failed(pending, error);
      return true;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else this.failed(pending, outcome.value);
    });
    return true;
  }
}

interface Outcome {
  ok: boolean;
  value: unknown;
}

/** How `work` on `trx` ended, whether it returned or threw. */
async function outcomeOf(work: BatchedWork<unknown>, trx: Transaction<Database>): Promise<Outcome> {
  try {
    return { ok: true, value: await work(trx) };
  } catch (error) {
    return { ok: false, value: error };
  }
}

async function flushAll(deferred: ReadonlyMap<object, DeferredWrites>): Promise<void> {
  for (const writes of deferred.values()) await writes.flush();
}

/** Runs `work` in a savepoint of `trx`, rolled back to if it throws. */
async function inSavepoint(trx: ControlledTransaction<Database>, work: BatchedWork<unknown>): Promise<Outcome> {
  const inner = await trx.savepoint(SAVEPOINT).execute();
  const outcome = await outcomeOf(work, inner);
  if (!outcome.ok) await inner.rollbackToSavepoint(SAVEPOINT).execute();
  await inner.releaseSavepoint(SAVEPOINT).execute();
  return outcome;
}

const rollBack = (trx: ControlledTransaction<Database>): Promise<unknown> =>
  trx
    .rollback()
    .execute()
    .catch(() => undefined);
