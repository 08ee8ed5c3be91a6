/**
 * PostgreSQL: a new store's migrations analyze only the tables holding rows (open-database.ts,
 * refreshPlannerStatistics). One analyzed while empty is planned as empty, and a plan cached then
 * (a foreign-key check of every timeline a submit stores) scans the table for as long as it stays
 * cached; one never analyzed is planned as ten pages, through its indexes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshPlannerStatistics } from '../../../src/main/db/open-database';
import { openWorkspace, type Workspace } from '../../../src/main/workspace/workspace';
import { fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { dropTestDatabase, newTestDatabase, onPostgres } from '../../helpers/test-database';

describe.runIf(onPostgres)("a new PostgreSQL store's planner statistics", () => {
  let dataDir: string;
  let workspace: Workspace;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scandesk-statistics-'));
    const url = await newTestDatabase(dataDir, { migrated: false });
    workspace = await openWorkspace(dataDir, { database: { kind: 'postgres', url } });
  });
  afterAll(async () => {
    await workspace.close();
    await dropTestDatabase(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const rowsKnown = async (table: string): Promise<number> => {
    const { rows } = await sql<{ reltuples: number }>`select reltuples from pg_class
      where relname = ${table} and relnamespace = current_schema()::regnamespace`.execute(workspace.db);
    return Number(rows[0]!.reltuples);
  };

  /** The plan a connection caches for a lookup by id, as foreign-key checks are cached. */
  const cachedLookup = async (): Promise<string> =>
    workspace.db.connection().execute(async (connection) => {
      await sql`set plan_cache_mode = force_generic_plan`.execute(connection);
      await sql`prepare lookup(text) as select 1 from scans where id = $1 for key share`.execute(connection);
      try {
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain execute lookup('x')`.execute(connection);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await sql`deallocate lookup`.execute(connection);
        await sql`reset plan_cache_mode`.execute(connection);
      }
    });

  it('leaves the empty tables unanalyzed, so that a lookup by id is planned through the index', async () => {
    expect(await rowsKnown('scans')).toBe(-1);
    expect(await rowsKnown('kysely_migration')).toBeGreaterThan(0);
    expect(await cachedLookup()).toMatch(/Index/);
  });

  it('analyzes a table once it holds rows', async () => {
    const owner = await workspace.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await insertScans(workspace.db, [
      { id: fixtureScanId(1), created_at: Date.UTC(2026, 10, 1), submitted_by: owner.id },
    ]);
    await refreshPlannerStatistics(workspace.db);
    expect(await rowsKnown('scans')).toBe(1);
  });
});
