import type { IsolationLevel, Transaction } from 'kysely';
import type { Database, Db } from './database';
import { classifyDbError, isRetryable } from './db-errors';
import { dialectOf } from './dialect';

/** Attempts per transaction before a lost race is given up on (and answered 409). */
export const MAX_ATTEMPTS = 8;

export interface TransactionOptions {
  /**
   * PostgreSQL only: `serializable` (the default) for read-then-write rules such as "an
   * organization keeps an owner" or "team names are unique", which must hold across server
   * processes; `read committed` for bulk writes whose only rules are constraints, where predicate
   * locks over large reads would make conflicts (and retries of long work) likely. SQLite
   * transactions take the write lock at BEGIN, so they are serializable whatever this says.
   */
  isolation?: Extract<IsolationLevel, 'serializable' | 'read committed'>;
}

/** A short, random pause before the next attempt, growing with each, so racers drift apart. */
export const retryDelayMs = (attempt: number): number => Math.random() * 2 * 2 ** attempt;

/**
 * Runs `work` in a transaction; the caller's one way to start one (lint keeps
 * `db.transaction()` inside src/main/db). On PostgreSQL, where several server processes may
 * share the store, an attempt that lost a race (serialization failure, deadlock, or a unique
 * key taken between a check and an insert) is rolled back and `work` runs again from the start,
 * up to MAX_ATTEMPTS times; `work` must therefore do nothing outside the transaction that cannot
 * be repeated.
 */
export async function inTransaction<T>(
  db: Db,
  work: (trx: Transaction<Database>) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  if (dialectOf(db) === 'sqlite') return db.transaction().execute(work);
  const isolation = options.isolation ?? 'serializable';
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().setIsolationLevel(isolation).execute(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(classifyDbError(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
    }
  }
}
