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
 * PostgreSQL's empty tables are left unanalyzed: a table never analyzed is planned as if it held
 * ten pages, one analyzed empty as empty, and a plan cached then stays until its next ANALYZE.
 * After a new store's migrations every foreign-key check of a scan's timeline seq-scanned `scans`
 * that way, up to a minute into its first load (autovacuum's first ANALYZE): one server's
 * submits fell from 2,000 to 650 req/s within seconds.
 */
export async function refreshPlannerStatistics(db: Db): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    // SQLite's recommended form analyzes only the tables that never were, or grew a lot since.
    await db.executeQuery(CompiledQuery.raw('PRAGMA optimize = 0x10002'));
    return;
  }
  const { rows } = await sql<{ name: string }>`select quote_ident(relname) as name from pg_class
    where relnamespace = current_schema()::regnamespace and relkind = 'r' and pg_relation_size(oid) > 0`.execute(db);
  if (rows.length > 0) await db.executeQuery(CompiledQuery.raw(`ANALYZE ${rows.map((row) => row.name).join(', ')}`));
}
