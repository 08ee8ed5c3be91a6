import type { Db } from '../../src/main/db/database';
import type { DatabaseLocation } from '../../src/main/db/database-location';
import { migrateToLatest } from '../../src/main/db/migrate';
import { migrations } from '../../src/main/db/migrations/index';
import { openDatabase } from '../../src/main/db/open-database';
import { databaseFile } from '../../src/main/workspace/data-dir';
import { newTestDatabase, onPostgres } from './test-database';

/**
 * A store in `dataDir` on the run's backend, migrated up to `migration` and not through it: what
 * an older Scandesk left, for a test of that migration. The caller destroys it (and drops its
 * database with dropTestDatabase).
 */
export async function openStoreBefore(dataDir: string, migration: string): Promise<Db> {
  const before = migrationsUpTo(migration, { through: false });
  const location: DatabaseLocation = onPostgres
    ? { kind: 'postgres', url: await newTestDatabase(dataDir, { migrated: false }) }
    : { kind: 'sqlite', file: databaseFile(dataDir) };
  const db = openDatabase(location);
  await migrateToLatest(db, before);
  return db;
}

/** The migrations before `migration`, and it too when `through`: a store of the day it landed. */
export function migrationsUpTo(migration: string, { through }: { through: boolean }): typeof migrations {
  const names = Object.keys(migrations);
  if (!names.includes(migration)) throw new Error(`no migration ${migration}`);
  return Object.fromEntries(Object.entries(migrations).slice(0, names.indexOf(migration) + (through ? 1 : 0)));
}
