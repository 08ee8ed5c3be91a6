/**
 * A page in tokens order with a filter that many scans match walks scans_list_tokens on SQLite
 * (token-order-walk.ts decides when), and answers the same rows as the planner's own way, and as
 * the scans say, either way.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanList } from '../../../src/shared/api/scans';
import { scanPageQuery } from '../../../src/main/scans/scans.repository';
import { fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { onPostgres } from '../../helpers/test-database';

const START = Date.UTC(2026, 9, 1);
const SCANS = 2000;
/** Most scans are `cursor`'s; every tenth is `rare`'s. */
const toolOf = (n: number): string => (n % 10 === 0 ? 'rare' : 'cursor');

describe('a page in tokens order', () => {
  let ctx: TestContext;
  let owner: TestUser;
  const fixtures = Array.from({ length: SCANS }, (_, n) => ({
    id: fixtureScanId(n + 1),
    created_at: START + n * 60_000,
    tool: toolOf(n),
    // Ties included: the id decides between them.
    tokens: (n * 7919) % 500,
  }));

  beforeAll(async () => {
    ctx = await createTestContext();
    owner = ctx.owner;
    await insertScans(
      ctx.db,
      fixtures.map((f) => ({ ...f, submitted_by: owner.id })),
    );
    await sql`ANALYZE`.execute(ctx.db);
  });

  afterAll(() => ctx.close());

  const page = (walkTokens: boolean, tool: string) =>
    scanPageQuery(
      ctx.db,
      owner.id,
      { tool },
      { limit: 50, offset: 20 },
      { column: 'tokens', direction: 'desc' },
      undefined,
      walkTokens,
    );

  it.skipIf(onPostgres)('walks the tokens index when told, and answers the same rows', async () => {
    const compiled = page(true, 'cursor').compile();
    const { rows } = await ctx.db.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
    });
    const plan = rows.map((row) => row.detail).join('\n');
    expect(plan).toMatch(/scans_list_tokens/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    expect(await page(true, 'cursor').execute()).toEqual(await page(false, 'cursor').execute());
    expect(await page(true, 'rare').execute()).toEqual(await page(false, 'rare').execute());
  });

  it('lists by tokens as the scans say, for a common tool and a rare one', async () => {
    for (const tool of ['cursor', 'rare']) {
      const expected = fixtures
        .filter((f) => f.tool === tool)
        .sort((a, b) => b.tokens - a.tokens || (a.id < b.id ? 1 : -1))
        .slice(20, 70)
        .map((f) => f.id);
      const response = await ctx.request({
        method: 'GET',
        url: `/v1/scans?sort=-tokens&tool=${tool}&limit=50&offset=20`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const list = response.json() as ScanList;
      expect(
        list.scans.map((scan) => scan.id),
        tool,
      ).toEqual(expected);
      expect(list.total).toBe(fixtures.filter((f) => f.tool === tool).length);
    }
  });
});
