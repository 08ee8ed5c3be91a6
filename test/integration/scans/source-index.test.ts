/**
 * A list or total by an imported or pulled `source` reads those scans by their partial index
 * (scans_list_source, migration 2026_12_04_090000), not by a walk of every scan in list order:
 * at 10,000,000 scans the walk took a minute when nothing matched. The index holds only what was
 * not submitted, so the query must say so in a term its planner can match (matching()).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanSource } from '../../../src/shared/api/scans';
import { matching, visibleTo } from '../../../src/main/scans/scans.repository';
import { fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { onPostgres } from '../../helpers/test-database';

const START = Date.UTC(2026, 9, 1);
const SCANS = 3000;
/** Every 250th scan was imported. */
const IMPORTED = SCANS / 250;

describe('a list by source', () => {
  let ctx: TestContext;
  let owner: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext();
    owner = ctx.owner;
    const scans = Array.from({ length: SCANS }, (_, n) => ({
      id: fixtureScanId(n + 1),
      created_at: START + n * 60_000,
      submitted_by: owner.id,
      imported: n % 250 === 0,
    }));
    await insertScans(ctx.db, scans);
    await sql`ANALYZE`.execute(ctx.db);
  });

  afterAll(() => ctx.close());

  const page = (source: ScanSource) =>
    ctx.db
      .selectFrom('scans')
      .where(visibleTo(owner.id))
      .where(matching({ source }))
      .select('scans.id')
      .orderBy('scans.created_at', 'desc')
      .orderBy('scans.id', 'desc')
      .limit(50);

  it.skipIf(onPostgres)('reads imported scans by their own index', async () => {
    const compiled = page('imported').compile();
    const { rows } = await ctx.db.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
    });
    expect(rows.map((row) => row.detail).join('\n')).toMatch(/USING (COVERING )?INDEX scans_list_source/);
  });

  it('answers the same rows and totals as the scans say', async () => {
    const imported = await page('imported').execute();
    expect(imported).toHaveLength(IMPORTED);
    const submitted = await page('submitted').execute();
    expect(submitted).toHaveLength(50);
    for (const source of ['submitted', 'imported', 'pulled'] as const) {
      const response = await ctx.request({ method: 'GET', url: `/v1/scans?limit=1&source=${source}` });
      expect(response.statusCode, response.body).toBe(200);
      const expected = { submitted: SCANS - IMPORTED, imported: IMPORTED, pulled: 0 }[source];
      expect(response.json().total, source).toBe(expected);
    }
  });
});
