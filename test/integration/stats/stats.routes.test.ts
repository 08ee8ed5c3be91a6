import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenStats, TokenStatsBucket } from '../../../src/shared/api/stats';
import { expectError } from '../../helpers/assertions';
import { createOrg, fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const at = (day: number, h: number, m = 0, s = 0, ms = 0): number => Date.UTC(2026, 10, day, h, m, s, ms);
const start = (day: number, h = 0): string => new Date(at(day, h)).toISOString();
const b = (
  startIso: string,
  tokens: number,
  scans: number,
  violations: number,
  groups?: Record<string, { tokens: number; scans: number }>,
): TokenStatsBucket => ({ start: startIso, tokens, scans, violations, ...(groups ? { groups } : {}) });

describe('GET /v1/stats/tokens', () => {
  let ctx: TestContext;
  let other: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    other = await ctx.createUser('other');
    orgId = await createOrg(ctx, 'Acme');
    const mine = ctx.owner.id;
    await insertScans(ctx.db, [
      // a–f: the owner's; the 3rd of November has none of theirs.
      {
        id: fixtureScanId(1),
        created_at: at(1, 9, 15),
        submitted_by: mine,
        tool: 'claude-code',
        action: 'edit',
        tokens: 100,
        violation_count: 2,
        organization_id: orgId,
      },
      {
        id: fixtureScanId(2),
        created_at: at(1, 9, 59, 59, 999),
        submitted_by: mine,
        tool: 'cursor',
        action: 'chat',
        tokens: 50,
      },
      {
        id: fixtureScanId(3),
        created_at: at(1, 10),
        submitted_by: mine,
        tool: 'claude-code',
        action: 'chat',
        tokens: 25,
        violation_count: 1,
        organization_id: orgId,
      },
      {
        id: fixtureScanId(4),
        created_at: at(1, 23, 59, 59, 999),
        submitted_by: mine,
        tool: 'claude-code',
        action: 'edit',
        tokens: 5,
      },
      {
        id: fixtureScanId(5),
        created_at: at(2, 0),
        submitted_by: mine,
        tool: 'cursor',
        action: 'edit',
        tokens: 1000,
        violation_count: 3,
        organization_id: orgId,
      },
      { id: fixtureScanId(6), created_at: at(4, 12, 30), submitted_by: mine, tool: 'aider', action: 'edit', tokens: 7 },
      // Another user's, not visible to the owner.
      {
        id: fixtureScanId(7),
        created_at: at(1, 9, 30),
        submitted_by: other.id,
        tool: 'claude-code',
        action: 'edit',
        tokens: 100_000,
        violation_count: 9,
      },
      {
        id: fixtureScanId(8),
        created_at: at(3, 12),
        submitted_by: other.id,
        tool: 'cursor',
        action: 'chat',
        tokens: 5000,
      },
    ]);
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function stats(query: string, as: TestUser = ctx.owner): Promise<TokenStats> {
    const response = await ctx.request({ method: 'GET', url: `/v1/stats/tokens?${query}`, as });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as TokenStats;
  }

  it('sums per UTC day, leaving out days without scans; day is the default', async () => {
    const expected: TokenStats = {
      bucket: 'day',
      buckets: [b(start(1), 180, 4, 3), b(start(2), 1000, 1, 3), b(start(4), 7, 1, 0)],
    };
    expect(await stats('bucket=day')).toEqual(expected);
    expect(await stats('')).toEqual(expected);
    for (const bucket of (await stats('')).buckets)
      expect(Object.keys(bucket).sort()).toEqual(['scans', 'start', 'tokens', 'violations']);
  });

  it('sums per UTC hour', async () => {
    expect(await stats('bucket=hour')).toEqual({
      bucket: 'hour',
      buckets: [
        b(start(1, 9), 150, 2, 2),
        b(start(1, 10), 25, 1, 1),
        b(start(1, 23), 5, 1, 0),
        b(start(2, 0), 1000, 1, 3),
        b(start(4, 12), 7, 1, 0),
      ],
    });
  });

  it('group_by=tool splits each bucket by tool', async () => {
    expect(await stats('bucket=day&group_by=tool')).toEqual({
      bucket: 'day',
      buckets: [
        b(start(1), 180, 4, 3, { 'claude-code': { tokens: 130, scans: 3 }, cursor: { tokens: 50, scans: 1 } }),
        b(start(2), 1000, 1, 3, { cursor: { tokens: 1000, scans: 1 } }),
        b(start(4), 7, 1, 0, { aider: { tokens: 7, scans: 1 } }),
      ],
    });
  });

  it('group_by=action splits each bucket by action', async () => {
    expect(await stats('bucket=hour&group_by=action')).toEqual({
      bucket: 'hour',
      buckets: [
        b(start(1, 9), 150, 2, 2, { edit: { tokens: 100, scans: 1 }, chat: { tokens: 50, scans: 1 } }),
        b(start(1, 10), 25, 1, 1, { chat: { tokens: 25, scans: 1 } }),
        b(start(1, 23), 5, 1, 0, { edit: { tokens: 5, scans: 1 } }),
        b(start(2, 0), 1000, 1, 3, { edit: { tokens: 1000, scans: 1 } }),
        b(start(4, 12), 7, 1, 0, { edit: { tokens: 7, scans: 1 } }),
      ],
    });
    expect(await stats('bucket=day&group_by=action')).toEqual({
      bucket: 'day',
      buckets: [
        b(start(1), 180, 4, 3, { edit: { tokens: 105, scans: 2 }, chat: { tokens: 75, scans: 2 } }),
        b(start(2), 1000, 1, 3, { edit: { tokens: 1000, scans: 1 } }),
        b(start(4), 7, 1, 0, { edit: { tokens: 7, scans: 1 } }),
      ],
    });
  });

  it('since is inclusive and until exclusive, to the millisecond; a date is midnight UTC, as until its whole day', async () => {
    expect((await stats(`since=${start(1, 10)}`)).buckets).toEqual([
      b(start(1), 30, 2, 1),
      b(start(2), 1000, 1, 3),
      b(start(4), 7, 1, 0),
    ]);
    expect((await stats('until=2026-11-01')).buckets).toEqual([b(start(1), 180, 4, 3)]);
    expect((await stats(`until=${start(2)}`)).buckets).toEqual([b(start(1), 180, 4, 3)]);
    expect((await stats('since=2026-11-02')).buckets).toEqual([b(start(2), 1000, 1, 3), b(start(4), 7, 1, 0)]);
    expect((await stats(`bucket=hour&since=2026-11-01T09:59:59.999Z&until=${start(1, 10)}`)).buckets).toEqual([
      b(start(1, 9), 50, 1, 0),
    ]);
    expect((await stats('since=2026-11-05')).buckets).toEqual([]);
    expect((await stats('since=2026-11-03&until=2026-11-03')).buckets).toEqual([]);
    expect((await stats('since=2026-11-04&until=2026-11-04')).buckets).toEqual([b(start(4), 7, 1, 0)]);
  });

  it('filters by tool and organization_id', async () => {
    expect((await stats('tool=claude-code')).buckets).toEqual([b(start(1), 130, 3, 3)]);
    expect((await stats('tool=cursor&group_by=action')).buckets).toEqual([
      b(start(1), 50, 1, 0, { chat: { tokens: 50, scans: 1 } }),
      b(start(2), 1000, 1, 3, { edit: { tokens: 1000, scans: 1 } }),
    ]);
    expect((await stats(`organization_id=${orgId}`)).buckets).toEqual([
      b(start(1), 125, 2, 3),
      b(start(2), 1000, 1, 3),
    ]);
    expect((await stats('tool=nothing')).buckets).toEqual([]);
  });

  it('counts only the caller’s visible scans', async () => {
    expect(await stats('', other)).toEqual({
      bucket: 'day',
      buckets: [b(start(1), 100_000, 1, 9), b(start(3), 5000, 1, 0)],
    });
    // The owner's organization is not the other user's: nothing of it.
    expect((await stats(`organization_id=${orgId}`, other)).buckets).toEqual([]);
  });

  it('answers token sums past 2^53 − 1 as 2^53 − 1, also past a 64-bit integer', async () => {
    const big = await ctx.createUser('big spender');
    // 1,100 scans of the largest count: their sum leaves even a signed 64-bit integer's range.
    await insertScans(
      ctx.db,
      Array.from({ length: 1100 }, (_, index) => ({
        id: fixtureScanId(10_000 + index),
        created_at: at(index < 1000 ? 5 : 6, 12),
        submitted_by: big.id,
        tool: 'claude-code',
        action: 'edit',
        tokens: Number.MAX_SAFE_INTEGER,
      })),
    );
    for (const query of [
      'bucket=day',
      'bucket=day&group_by=tool',
      'bucket=hour',
      `since=${new Date(at(5, 6)).toISOString()}`,
    ]) {
      const { buckets } = await stats(query, big);
      expect(
        buckets.map((bucket) => bucket.tokens),
        query,
      ).toEqual([Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);
      for (const bucket of buckets) {
        for (const group of Object.values(bucket.groups ?? {})) expect(group.tokens).toBe(Number.MAX_SAFE_INTEGER);
      }
    }
  });

  it('keeps storing scans on a day whose token sum leaves a 64-bit integer, and unwinds it when they go', async () => {
    const huge = await ctx.createUser('huge spender');
    // 1,100 scans of the largest count on one day and key: past 2^63 within scan_days' one row.
    const ids = Array.from({ length: 1100 }, (_, index) => fixtureScanId(20_000 + index));
    await insertScans(
      ctx.db,
      ids.map((id) => ({
        id,
        created_at: at(7, 12),
        submitted_by: huge.id,
        tool: 'claude-code',
        action: 'edit',
        tokens: Number.MAX_SAFE_INTEGER,
      })),
    );
    expect((await stats('bucket=day', huge)).buckets).toEqual([b(start(7), Number.MAX_SAFE_INTEGER, 1100, 0)]);
    await ctx.db.deleteFrom('scans').where('submitted_by', '=', huge.id).execute();
    expect((await stats('bucket=day', huge)).buckets).toEqual([]);
  });

  it('refuses bad parameters, naming them', async () => {
    for (const [query, field] of [
      ['bucket=week', 'bucket'],
      ['bucket=', 'bucket'],
      ['bucket=HOUR', 'bucket'],
      ['group_by=status', 'group_by'],
      ['since=yesterday', 'since'],
      ['until=2026-02-30', 'until'],
      ['group=tool', 'group'],
      ['tool=a%00b', 'tool'],
    ] as const) {
      const response = await ctx.request({ method: 'GET', url: `/v1/stats/tokens?${query}` });
      const { details } = expectError(response, 400, 'validation_failed');
      expect(
        details.map((d) => d.field),
        query,
      ).toEqual([field]);
    }
    expectError(await ctx.request({ method: 'GET', url: '/v1/stats/tokens', as: null }), 401, 'unauthorized');
  });
});
