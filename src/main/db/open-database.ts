import { CompiledQuery, sql } from 'kysely';
import type { Db } from './database';
import { describeLocation, maskSecrets, type DatabaseLocation } from './database-location';
import { dialectOf } from './dialect';
import { openPostgres, type PostgresOptions } from './postgres/postgres-connection';
import { openSqliteDatabase, type OpenOptions } from './sqlite/sqlite-connection';
import { storeOf, type Store } from './store';

export type OpenDatabaseOptions = OpenOptions & PostgresOptions;

/** The store at `location` under Kysely: features see one Database, whichever the dialect. */
export function openDatabase(location: DatabaseLocation, options: OpenDatabaseOptions = {}): Db {
  return location.kind === 'sqlite'
    ? openSqliteDatabase(location.file, options)
    : openPostgres(location.url, { ...options, passwordFile: location.passwordFile });
}

/** The store at `location` with everything that lives as long as it (store.ts); closing it closes them. */
export function openStore(location: DatabaseLocation, options: OpenDatabaseOptions = {}): Store {
  return storeOf(openDatabase(location, options));
}

export class StoreUnreachableError extends Error {
  override readonly name = 'StoreUnreachableError';
}

/**
 * Fails with one readable sentence when the store cannot be reached (a PostgreSQL server that is
 * down, a wrong port, refused credentials), instead of a driver's stack from deep in a migration.
 */
export async function checkReachable(db: Db, location: DatabaseLocation): Promise<void> {
  try {
    await sql`SELECT 1`.execute(db);
  } catch (error) {
    // A driver's message may quote the connection string it was given.
    const reason = maskSecrets(error instanceof Error ? error.message : String(error));
    throw new StoreUnreachableError(`cannot reach the store at ${describeLocation(location)}: ${reason}`, {
      cause: error,
    });
  }
}

/**
 * Gathers planner statistics for whatever lacks them. Run it after migrations and bulk loads: a
 * rebuilt index has none, and without them a million-scan list page is answered by merging two
 * indexes and sorting every visible scan (1.2 s instead of under a millisecond on SQLite).
 */
export async function refreshPlannerStatistics(db: Db): Promise<void> {
  // SQLite's recommended form analyzes only the tables that never were, or grew a lot since.
  const statement = dialectOf(db) === 'sqlite' ? 'PRAGMA optimize = 0x10002' : 'ANALYZE';
  await db.executeQuery(CompiledQuery.raw(statement));
}
