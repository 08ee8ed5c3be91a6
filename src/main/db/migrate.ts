import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Database } from './database';
import { dialectOf } from './dialect';
import { migrations as allMigrations } from './migrations/index';

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/**
 * Brings the schema up to date. The pending migrations run in one transaction (our SQLite
 * dialect declares transactional DDL), so a failure rolls all of them back and the database stays
 * as it was. `onUpgrade` hears of the pending migrations first when an existing store is behind:
 * rebuilding an index over a million scans takes seconds, which a caller should announce.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  migrations: Readonly<Record<string, Migration>> = allMigrations,
  onUpgrade?: (pending: string[]) => void,
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ ...migrations }) } });
  if (onUpgrade) {
    const known = await migrator.getMigrations();
    const pending = known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
    // A new store runs every migration on empty tables; only an existing one can take a while.
    if (pending.length > 0 && pending.length < known.length) onUpgrade(pending);
  }
  const { error, results = [] } = await withoutForeignKeysOnSqlite(db, () => migrator.migrateToLatest());
  if (error) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`database migration ${failed} failed, nothing was changed: ${reason}`, { cause: error });
  }
  return results.map((result) => result.migrationName);
}

/**
 * SQLite rebuilds a table to change a column (create, copy, drop, rename), and dropping a table
 * that others reference deletes what references it when foreign keys are enforced (ON DELETE
 * CASCADE). SQLite's own procedure turns enforcement off around such a migration, which it allows
 * only outside a transaction; a migration that rebuilds a referenced table checks the references
 * itself (PRAGMA foreign_key_check) before the migrations' transaction commits.
 */
async function withoutForeignKeysOnSqlite<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite') return work();
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    return await work();
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
