import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './database';

export interface OpenOptions {
  /** Path of an Electron-ABI build of better-sqlite3; Node uses the package's own binary. */
  nativeBinding?: string;
  busyTimeoutMs?: number;
}

/** Opens a SQLite file with the pragmas every connection needs. The only place with SQLite-only SQL. */
export function openDatabase(file: string, options: OpenOptions = {}): Kysely<Database> {
  const sqlite = new SQLite(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    sqlite.pragma('journal_mode = WAL');
    // WAL + NORMAL: a process crash loses nothing committed; only a power cut can lose the last commits.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
