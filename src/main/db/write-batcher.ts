import type { Transaction } from 'kysely';
import type { Database, Db } from './database';
import { classifyDbError, isRetryable } from './db-errors';
import { dialectOf } from './dialect';
import { withJournalsInMemory } from './sqlite-connection';
import { MAX_ATTEMPTS } from './transaction';

export type BatchedWork<T> = (trx: Transaction<Database>) => Promise<T>;

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
 * together in the next one, each inside its own savepoint: one that throws is rolled back alone
 * and rejects alone; the others commit together. Every promise settles only after its
 * transaction committed (or failed), so an answer sent on resolve is never for a write that a
 * crash could still lose. A lone work runs at once, in a transaction of its own; under load the
 * commit, the costliest step of a small write, is shared by every work in the batch.
 */
export class WriteBatcher {
  private readonly queue: Pending[] = [];
  private draining = false;

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
    }
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
    if (this.postgres) return this.commitBatch(this.db, batch);
    return withJournalsInMemory(this.db, (connection) => this.commitBatch(connection, batch));
  }

  private async commitBatch(db: Db, batch: Pending[]): Promise<void> {
    const outcomes: { ok: boolean; value: unknown }[] = [];
    const trx = await db
      .startTransaction()
      .execute()
      .catch((error: unknown) => {
        for (const pending of batch) this.failed(pending, error);
      });
    if (!trx) return;
    try {
      for (const pending of batch) {
        const inner = await trx.savepoint(SAVEPOINT).execute();
        try {
          outcomes.push({ ok: true, value: await pending.work(inner) });
        } catch (error) {
          await inner.rollbackToSavepoint(SAVEPOINT).execute();
          outcomes.push({ ok: false, value: error });
        }
        await inner.releaseSavepoint(SAVEPOINT).execute();
      }
      await trx.commit().execute();
    } catch (error) {
      // A savepoint command or the commit failed: nothing of this batch is stored.
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      for (const pending of batch) this.failed(pending, error);
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else this.failed(pending, outcome.value);
    });
  }
}

const batchers = new WeakMap<Db, WriteBatcher>();

/** Runs `work` through the one WriteBatcher of `db`. */
export function batchedWrite<T>(db: Db, work: BatchedWork<T>): Promise<T> {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new WriteBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher.run(work);
}
