import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Severity } from '../../../src/shared/api/scans';
import type { ViolationStats } from '../../../src/shared/api/stats';
import { expectError } from '../../helpers/assertions';
import { createOrg, fixtureScanId, insertScans, setRole } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const at = (day: number, h = 12): number => Date.UTC(2026, 10, day, h);

const RULE_SEVERITY: Record<string, Severity> = {
  'tool.blocked': 'critical',
  'tool.not_allowed': 'high',
  'action.blocked': 'high',
  'tokens.scan_limit': 'medium',
  'tokens.request_limit': 'low',
};

const stats = (
  by_severity: Partial<ViolationStats['by_severity']>,
  by_rule: Record<string, number>,
): ViolationStats => ({ by_severity: { low: 0, medium: 0, high: 0, critical: 0, ...by_severity }, by_rule });

describe('GET /v1/stats/violations', () => {
  let ctx: TestContext;
  let other: TestUser;
  let admin: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    other = await ctx.createUser('other');
    admin = await ctx.createUser('admin');
    orgId = await createOrg(ctx, 'Acme');
    await setRole(ctx, orgId, admin, 'admin');
    const mine = ctx.owner.id;
    // scan → its violations' rules
    const plan: [number, number, string, string | null, string[]][] = [
      [1, at(1), mine, orgId, ['tool.blocked', 'tokens.request_limit', 'tokens.request_limit']],
      [2, at(2), mine, null, ['tokens.scan_limit']],
      [3, at(3), mine, orgId, []],
      [4, at(3, 18), mine, orgId, ['action.blocked', 'action.blocked', 'tool.not_allowed']],
      // The other user's, in the owner's organization (visible to its owner and admin), and outside it.
      [5, at(2), other.id, orgId, ['tool.blocked']],
      [6, at(2), other.id, null, ['tokens.scan_limit', 'tokens.request_limit']],
    ];
    await insertScans(
      ctx.db,
      plan.map(([n, created, by, org, rules]) => ({
        id: fixtureScanId(n),
        created_at: created,
        submitted_by: by,
        organization_id: org,
        violation_count: rules.length,
      })),
    );
    const violations = plan.flatMap(([n, , , , rules]) =>
      rules.map((rule, seq) => ({
        id: `vio_${n}_${seq}`,
        scan_id: fixtureScanId(n),
        seq,
        rule,
        severity: RULE_SEVERITY[rule]!,
        message: rule,
        timeline_index: null,
      })),
    );
    await ctx.db.insertInto('violations').values(violations).execute();
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function get(query: string, as: TestUser = ctx.owner): Promise<ViolationStats> {
    const response = await ctx.request({ method: 'GET', url: `/v1/stats/violations?${query}`, as });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ViolationStats;
  }

  it('counts by severity and by rule over the visible scans', async () => {
    // Owner: scans 1–4 (own) and 5 (their organization's); not 6.
    expect(await get('')).toEqual(
      stats(
        { critical: 2, high: 3, medium: 1, low: 2 },
        {
          'tool.blocked': 2,
          'tokens.request_limit': 2,
          'tokens.scan_limit': 1,
          'action.blocked': 2,
          'tool.not_allowed': 1,
        },
      ),
    );
  });

  it('follows the scans list visibility for each user', async () => {
    expect(await get('', other)).toEqual(
      stats(
        { critical: 1, medium: 1, low: 1 },
        { 'tool.blocked': 1, 'tokens.scan_limit': 1, 'tokens.request_limit': 1 },
      ),
    );
    // An admin sees the organization's scans (1, 4, 5), not the owner's unaffiliated scan 2.
    expect(await get('', admin)).toEqual(
      stats(
        { critical: 2, high: 3, low: 2 },
        { 'tool.blocked': 2, 'tokens.request_limit': 2, 'action.blocked': 2, 'tool.not_allowed': 1 },
      ),
    );
    // A stranger sees nothing, and all four severities are still present.
    const stranger = await ctx.createUser('stranger');
    expect(await get('', stranger)).toEqual(stats({}, {}));
    // Not a member of the organization, the other user still sees the scan they submitted to it.
    expect(await get(`organization_id=${orgId}`, other)).toEqual(stats({ critical: 1 }, { 'tool.blocked': 1 }));
  });

  it('filters by since (inclusive), until (a date-time exclusive, a day inclusive) and organization_id', async () => {
    expect(await get('since=2026-11-03')).toEqual(stats({ high: 3 }, { 'action.blocked': 2, 'tool.not_allowed': 1 }));
    expect(await get(`since=2026-11-02&until=${new Date(at(3, 18)).toISOString()}`)).toEqual(
      stats({ critical: 1, medium: 1 }, { 'tool.blocked': 1, 'tokens.scan_limit': 1 }),
    );
    // A day as until includes that whole day: the scans of 1 and 2 November, none of the 3rd.
    expect(await get(`organization_id=${orgId}&until=2026-11-02`)).toEqual(
      stats({ critical: 2, low: 2 }, { 'tool.blocked': 2, 'tokens.request_limit': 2 }),
    );
    expect(await get('since=2026-12-01')).toEqual(stats({}, {}));
  });

  it('refuses bad parameters, naming them, and needs a token', async () => {
    for (const [query, field] of [
      ['since=yesterday', 'since'],
      ['until=2026-02-30', 'until'],
      ['organization_id=', 'organization_id'],
      ['bucket=day', 'bucket'],
    ] as const) {
      const response = await ctx.request({ method: 'GET', url: `/v1/stats/violations?${query}` });
      const { details } = expectError(response, 400, 'validation_failed');
      expect(
        details.map((d) => d.field),
        query,
      ).toEqual([field]);
    }
    expectError(await ctx.request({ method: 'GET', url: '/v1/stats/violations', as: null }), 401, 'unauthorized');
  });
});
