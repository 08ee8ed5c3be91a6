import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely, type Migration } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase } from '../../../src/main/db/sqlite/sqlite-connection';
import type { Database } from '../../../src/main/db/database';
import { MigrationError, migrateToLatest } from '../../../src/main/db/migrate';
import { migrations } from '../../../src/main/db/migrations/index';

const BROKEN = '9999_12_31_000000_broken';

/** A migration that changes the schema and then fails half-way. */
const broken: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('half_done')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .execute();
    await sql`insert into half_done (id) values ('x')`.execute(db);
    throw new Error('boom in the middle');
  },
};

async function tableNames(db: Kysely<Database>): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(
    db,
  );
  return result.rows.map((row) => row.name);
}

async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return result.rows.map((row) => row.name);
}

describe('migrateToLatest', () => {
  let dir: string;
  let db: Kysely<Database>;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-migrate-'));
    db = openSqliteDatabase(join(dir, 'scandesk.db'));
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies every migration once and is idempotent', async () => {
    expect(await migrateToLatest(db, migrations)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(db, migrations)).toEqual([]);
    expect(await appliedMigrations(db)).toEqual(Object.keys(migrations));
    expect(await tableNames(db)).toEqual(expect.arrayContaining(['users', 'tokens', 'organizations', 'scans']));
  });

  it('a failing migration throws MigrationError naming it and leaves the database as it was', async () => {
    await migrateToLatest(db, migrations);
    await sql`insert into users (id, name, is_workspace_owner, created_at) values ('usr_1', 'local', 1, '2026-11-21T00:00:00.000Z')`.execute(
      db,
    );
    const tablesBefore = await tableNames(db);

    const attempt = migrateToLatest(db, { ...migrations, [BROKEN]: broken });
    await expect(attempt).rejects.toBeInstanceOf(MigrationError);
    await expect(attempt).rejects.toThrow(BROKEN);
    await expect(attempt).rejects.toThrow('boom in the middle');

    expect(await tableNames(db)).toEqual(tablesBefore);
    expect(await tableNames(db)).not.toContain('half_done');
    expect(await appliedMigrations(db)).toEqual(Object.keys(migrations));
    const users = await sql<{ id: string }>`select id from users`.execute(db);
    expect(users.rows).toEqual([{ id: 'usr_1' }]);

    // The database is still usable and a fixed migration set applies nothing new.
    expect(await migrateToLatest(db, migrations)).toEqual([]);
  });

  it('on a fresh database a failure rolls back the earlier pending migrations too', async () => {
    const attempt = migrateToLatest(db, { ...migrations, [BROKEN]: broken });
    await expect(attempt).rejects.toBeInstanceOf(MigrationError);
    const tables = await tableNames(db);
    expect(tables).not.toContain('half_done');
    expect(tables).not.toContain('users');

    // A later start with the good migrations still works.
    expect(await migrateToLatest(db, migrations)).toEqual(Object.keys(migrations));
  });

  it('announces the pending migrations of an existing store, never of a new one', async () => {
    const names = Object.keys(migrations);
    const heard: string[][] = [];
    const older = Object.fromEntries(Object.entries(migrations).slice(0, 1));
    await migrateToLatest(db, older, (pending) => heard.push(pending));
    expect(heard).toEqual([]);

    await migrateToLatest(db, migrations, (pending) => heard.push(pending));
    expect(heard).toEqual([names.slice(1)]);

    await migrateToLatest(db, migrations, (pending) => heard.push(pending));
    expect(heard).toHaveLength(1);
  });
});
