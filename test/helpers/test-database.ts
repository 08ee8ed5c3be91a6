/**
 * The store of a test, by backend: SCANDESK_TEST_BACKEND=postgres runs the integration and
 * end-to-end suites against PostgreSQL (see postgres-global-setup.ts), anything else on SQLite.
 * On PostgreSQL every data directory gets a database of its own, cloned from the migrated
 * template, so tests stay as isolated as with one SQLite file each.
 */
import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import type { DatabaseLocation } from '../../src/main/db/database-location';
import { createDatabase, dropDatabase } from '../fixtures/postgres-cluster';

export const onPostgres = process.env.SCANDESK_TEST_BACKEND === 'postgres';

const byDataDir = new Map<string, { name: string; url: string }>();

function adminUrl(): string {
  const url = process.env.SCANDESK_TEST_DATABASE_URL;
  if (!url) throw new Error('SCANDESK_TEST_BACKEND=postgres without a server: run through vitest (global setup)');
  return url;
}

/**
 * A new PostgreSQL database, migrated (cloned from the run's template) unless `migrated` is false;
 * its URL. Registered under `key` (a data dir, say), and dropped by dropTestDatabases.
 */
export async function newTestDatabase(
  key: string = randomBytes(6).toString('hex'),
  options: { migrated?: boolean } = {},
): Promise<string> {
  const name = `scandesk_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const template = options.migrated === false ? undefined : process.env.SCANDESK_TEST_TEMPLATE;
  const url = await createDatabase(adminUrl(), name, template);
  byDataDir.set(key, { name, url });
  return url;
}

/** Points `dataDir` at an existing test database (several servers on one store). */
export function shareTestDatabase(dataDir: string, url: string): void {
  byDataDir.set(dataDir, { name: new URL(url).pathname.slice(1), url });
}

/**
 * Copies a data directory with its store: the files, and on PostgreSQL its database (cloned as a
 * template; every connection to it must be closed).
 */
export async function copyDataDir(from: string, to: string): Promise<void> {
  cpSync(from, to, { recursive: true });
  const source = byDataDir.get(from);
  if (!source) return;
  const name = `scandesk_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  byDataDir.set(to, { name, url: await createDatabase(adminUrl(), name, source.name) });
}

/** Where the store of `dataDir` lives in this run: undefined (its SQLite file) or its own PostgreSQL database. */
export async function testDatabaseFor(dataDir: string): Promise<DatabaseLocation | undefined> {
  if (!onPostgres) return undefined;
  const url = byDataDir.get(dataDir)?.url ?? (await newTestDatabase(dataDir));
  return { kind: 'postgres', url };
}

/** The environment that points a `scandesk` child process at the store of `dataDir`. */
export async function databaseEnvFor(dataDir: string): Promise<Record<string, string>> {
  const location = await testDatabaseFor(dataDir);
  return location?.kind === 'postgres' ? { SCANDESK_DATABASE_URL: location.url } : {};
}

/** Drops the database of `dataDir` (no-op on SQLite). */
export async function dropTestDatabase(dataDir: string): Promise<void> {
  const entry = byDataDir.get(dataDir);
  if (!entry) return;
  byDataDir.delete(dataDir);
  await dropDatabase(adminUrl(), entry.name);
}

/** Drops every database this process made (no-op on SQLite). */
export async function dropTestDatabases(): Promise<void> {
  for (const dataDir of [...byDataDir.keys()]) await dropTestDatabase(dataDir);
}
