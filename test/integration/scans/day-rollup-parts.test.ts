/**
 * A week's total reads a member's own scans of scan_days (or scan_hours) by the member's keys,
 * never by a walk of every submitter's rows of those days (scans.repository.ts, partRows). SQLite is told the
 * index: on a large store its planner takes the walk (docs/benchmarks.md), which a test store
 * this small cannot show, so the test checks that it is told, and that it can use what it is told
 * (SQLite refuses a statement whose INDEXED BY no plan can use). PostgreSQL chooses on its own.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partRows, visibleDayRows, visibleHourRows } from '../../../src/main/scans/scans.repository';
import { createOrg, fixtureScanId, insertScans, setRole } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { onPostgres } from '../../helpers/test-database';

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);
const DAYS = 30;
const TOOLS = ['claude-code', 'cursor', 'ChatGPT'];
const ACTIONS = ['edit', 'chat', 'review'];
const STATUSES = ['pending', 'running', 'completed', 'failed'] as const;

describe("a member's own day rollup rows", () => {
  let ctx: TestContext;
  let member: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext();
    const others = await Promise.all(Array.from({ length: 4 }, (_, n) => ctx.createUser(`other ${n}`)));
    member = await ctx.createUser('member');
    const orgIds = [];
    for (const name of ['North', 'South', 'East', 'West']) {
      const orgId = await createOrg(ctx, name);
      await setRole(ctx, orgId, member, 'member');
      orgIds.push(orgId);
    }
    let n = 0;
    const scans = [];
    for (const user of [member, ...others])
      for (const organization_id of orgIds)
        for (let day = 0; day < DAYS; day++)
          for (const tool of TOOLS)
            for (const action of ACTIONS)
              scans.push({
                id: fixtureScanId(++n),
                created_at: START + day * DAY + 3_600_000,
                submitted_by: user.id,
                organization_id,
                tool,
                action,
                status: STATUSES[n % STATUSES.length],
              });
    await insertScans(ctx.db, scans);
    await sql`ANALYZE`.execute(ctx.db);
  });

  afterAll(() => ctx.close());

  const lastWeek = { since: START + (DAYS - 7) * DAY };

  describe.each([
    { table: 'scan_days', parts: visibleDayRows, key: 'day' },
    { table: 'scan_hours', parts: visibleHourRows, key: 'hour' },
  ] as const)('in $table', ({ table, parts, key }) => {
    function ownWeek() {
      const part = parts(member.id, onPostgres ? 'postgres' : 'sqlite').find((candidate) => candidate.table === table)!;
      return partRows(ctx.db, part, { tool: 'cursor' }, lastWeek).select(
        sql<number>`sum(${sql.ref(`${table}.scans`)})`.as('total'),
      );
    }

    it('reads them by an index on their keys', async () => {
      const compiled = ownWeek().compile();
      if (!onPostgres) expect(compiled.sql).toContain(`"${table}" indexed by "${table}_by_submitter" where`);
      const { rows } = await ctx.db.executeQuery<Record<string, string>>({
        ...compiled,
        sql: `${onPostgres ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} ${compiled.sql}`,
      });
      const plan = rows.map((row) => row[onPostgres ? 'QUERY PLAN' : 'detail']).join('\n');
      expect(plan).toMatch(
        new RegExp(onPostgres ? `${table}_(pk|by_submitter|by_organization)` : `${table}_by_submitter`),
      );
      expect(plan).not.toMatch(new RegExp(`SCAN ${table}|Seq Scan on ${table}|PRIMARY KEY \\(${key}`));
    });

    it('sums every one of them, and nobody else', async () => {
      expect(Number((await ownWeek().executeTakeFirstOrThrow()).total)).toBe(7 * 4 * ACTIONS.length);
    });
  });
});
