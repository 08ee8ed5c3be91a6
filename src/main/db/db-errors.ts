/**
 * What a driver error means for the caller, in both dialects' terms: a lost race (unique or
 * foreign-key violation, serialization failure, deadlock) is retried or answered 409, never 500.
 * better-sqlite3 names its errors by SQLite result code, pg by SQLSTATE.
 */
export type DbErrorKind = 'unique' | 'foreign-key' | 'serialization' | 'deadlock' | 'busy';

const SQLSTATE: Record<string, DbErrorKind> = {
  '23505': 'unique',
  '23503': 'foreign-key',
  '40001': 'serialization',
  '40P01': 'deadlock',
  // lock_not_available: a lock_timeout expired.
  '55P03': 'busy',
};

const SQLITE_CODES: Record<string, DbErrorKind> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign-key',
  SQLITE_BUSY: 'busy',
  SQLITE_BUSY_SNAPSHOT: 'busy',
};

export function classifyDbError(error: unknown): DbErrorKind | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return undefined;
  return SQLSTATE[code] ?? SQLITE_CODES[code];
}

/** Whether running the whole transaction again can succeed where this attempt lost a race. */
export const isRetryable = (kind: DbErrorKind | undefined): boolean =>
  kind === 'serialization' || kind === 'deadlock' || kind === 'unique';
