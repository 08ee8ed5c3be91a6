/**
 * Migration 2026_11_26_175000_store_pulled_scans on a store with scans in it: the source check
 * takes 'pulled' (on SQLite by rebuilding the table) and nothing else changes: every row, index
 * and trigger is there after it, and the rollups the triggers keep stay exact.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/main/db/database';
import { migrateToLatest } from '../../../src/main/db/migrate';
import { migrations } from '../../../src/main/db/migrations/index';
import { fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { rollupProblems, storeInvariants } from '../../helpers/store-checks';
import { migrationsUpTo, openStoreBefore } from '../../helpers/store-before';
import { dropTestDatabase, onPostgres } from '../../helpers/test-database';

const MIGRATION = '2026_11_26_175000_store_pulled_scans';
const USER = 'usr_01JPULLEDSOURCE0000000000';

/** The scans table's indexes and triggers, by name. */
async function schemaOf(db: Db): Promise<string[]> {
  const { rows } = onPostgres
    ? await sql<{ name: string }>`
        select indexname as name from pg_indexes where tablename = 'scans'
        union all select tgname from pg_trigger where tgrelid = 'scans'::regclass and not tgisinternal`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master where tbl_name = 'scans' and type <> 'table'`.execute(
        db,
      );
  return rows.map((row) => row.name).sort();
}

describe('scans may be pulled', () => {
  let dataDir: string;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.destroy();
    await dropTestDatabase(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every scan, index and trigger, and takes pulled scans with the rollups right', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scandesk-pulled-source-'));
    db = await openStoreBefore(dataDir, MIGRATION);
    await db
      .insertInto('users')
      .values({ id: USER, name: 'local', is_workspace_owner: 1, created_at: '2026-11-01T00:00:00.000Z' })
      .execute();
    await insertScans(
      db,
      Array.from({ length: 50 }, (_, n) => ({
        id: fixtureScanId(n + 1),
        created_at: Date.UTC(2026, 10, 1) + n * 3_600_000,
        submitted_by: USER,
        violation_count: n % 4 === 0 ? 1 : 0,
      })),
    );
    const scans = await db.selectFrom('scans').selectAll().orderBy('id').execute();
    const schema = await schemaOf(db);

    await migrateToLatest(db, migrationsUpTo(MIGRATION, { through: true }));
    expect(await db.selectFrom('scans').selectAll().orderBy('id').execute()).toEqual(scans);
    expect(await schemaOf(db)).toEqual([...schema, 'scans_origin_id'].sort());
    await migrateToLatest(db, migrations);

    const pulled = {
      ...scans[0]!,
      id: fixtureScanId(100),
      source: 'pulled' as const,
      created_at: Date.UTC(2026, 10, 20),
      // No timeline was stored for it.
      request_count: 0,
    };
    await db.insertInto('scans').values(pulled).execute();
    await db.deleteFrom('scans').where('id', '=', fixtureScanId(2)).execute();
    await db.updateTable('scans').set({ violation_count: 3 }).where('id', '=', fixtureScanId(3)).execute();
    expect(rollupProblems(await storeInvariants(db))).toEqual([]);
    const [counts] = await db
      .selectFrom('scan_counts')
      .select((eb) => eb.fn.sum<number>('scans').as('n'))
      .execute();
    expect(Number(counts!.n)).toBe(50);
    await expect(
      db
        .insertInto('scans')
        .values({ ...pulled, id: fixtureScanId(101), source: 'copied' as never })
        .execute(),
    ).rejects.toThrow(/check/i);
  });
});
