import { Migrator, type Kysely, type Migration } from 'kysely';
import type { Database } from './database';
import { migrations as allMigrations } from './migrations/index';

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/**
 * Brings the schema up to date. The pending migrations run in one transaction (our SQLite
 * dialect declares transactional DDL), so a failure rolls all of them back and the database stays
 * as it was.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  migrations: Readonly<Record<string, Migration>> = allMigrations,
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ ...migrations }) } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`database migration ${failed} failed, nothing was changed: ${reason}`, { cause: error });
  }
  return results.map((result) => result.migrationName);
}
