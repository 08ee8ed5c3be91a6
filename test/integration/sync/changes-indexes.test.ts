/**
 * Each bucket of the change feed is one range of one index, read in its order: no page walks the
 * store or sorts it (docs/contract/api.md#sync). Checked on the plan the engine chooses for a
 * store of some thousands of scans, on the run's backend.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_BUCKET, type Position } from '../../../src/main/sync/changes/change-cursor';
import { bucketQuery } from '../../../src/main/sync/changes/changes.repository';
import { createOrg, fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { onPostgres } from '../../helpers/test-database';

const SCANS = 4000;

describe('the change feed reads from its indexes', () => {
  let ctx: TestContext;
  let other: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    other = await ctx.createUser('other');
    orgId = await createOrg(ctx, 'Indexed');
    await insertScans(
      ctx.db,
      Array.from({ length: SCANS }, (_, n) => ({
        id: fixtureScanId(n + 1),
        created_at: Date.UTC(2026, 10, 1) + n * 1000,
        submitted_by: n % 2 === 0 ? ctx.owner.id : other.id,
        organization_id: n % 3 === 0 ? null : orgId,
      })),
    );
    await sql`ANALYZE`.execute(ctx.db);
  });

  afterAll(async () => {
    await ctx.close();
  });

  async function plan(key: string, after: Position | undefined): Promise<string> {
    const compiled = bucketQuery(ctx.db, ctx.owner.id, key, after, 501).compile();
    const { rows } = await ctx.db.executeQuery<Record<string, string>>({
      ...compiled,
      sql: `${onPostgres ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} ${compiled.sql}`,
    });
    return rows.map((row) => row[onPostgres ? 'QUERY PLAN' : 'detail']).join('\n');
  }

  it.each([
    ['own, from the start', OWN_BUCKET, undefined, 'scans_changes_by_submitter'],
    ['own, after a whole seq', OWN_BUCKET, { seq: 1, id: null }, 'scans_changes_by_submitter'],
    ['own, inside a seq', OWN_BUCKET, { seq: 1, id: fixtureScanId(10) }, 'scans_changes_by_submitter'],
    ["an organization's, inside a seq", 'ORG', { seq: 1, id: fixtureScanId(10) }, 'scans_changes_by_organization'],
  ] as const)('%s', async (_, key, after, index) => {
    const text = await plan(key === 'ORG' ? orgId : key, after);
    expect(text).toContain(index);
    expect(text).not.toMatch(/TEMP B-TREE|Sort|Seq Scan/i);
  });
});
