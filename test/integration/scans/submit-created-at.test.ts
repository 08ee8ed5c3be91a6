/**
 * A submit's `created_at` (docs/contract/api.md#scans): a scan made offline and sent later keeps
 * its time, up to 5 minutes ahead of the server's clock; it is the scan's time for its default
 * timeline, the list, the day buckets and the range of a policy re-evaluation, while the policy
 * applied at once is the one of the moment it is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence } from '../../../src/shared/api/evidence';
import type { Policy } from '../../../src/shared/api/policies';
import type { Scan } from '../../../src/shared/api/scans';
import type { TokenStats } from '../../../src/shared/api/stats';
import { expectError } from '../../helpers/assertions';
import { createOrg, listScans, putPolicy, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';

const OPEN: Policy = {
  max_tokens_per_scan: null,
  max_tokens_per_request: null,
  allowed_tools: null,
  blocked_tools: [],
  blocked_actions: [],
};

describe('POST /v1/scans with created_at', () => {
  let ctx: TestContext;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    orgId = await createOrg(ctx, 'Acme');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const scanCount = async (): Promise<number> =>
    Number(
      (
        await ctx.db
          .selectFrom('scans')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('keeps the given time, written as the server writes timestamps, and gives the default timeline that time', async () => {
    const scan = await submitScan(ctx, {
      tool: 'cursor',
      action: 'edit',
      tokens: 7,
      created_at: '2026-03-04T10:30:00.1234+02:00',
    });
    expect(scan.created_at).toBe('2026-03-04T08:30:00.123Z');
    const read = (await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}` })).json() as Scan;
    expect(read.created_at).toBe('2026-03-04T08:30:00.123Z');
    const evidence = (await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence` })).json() as Evidence;
    expect(evidence.evidence.timeline).toEqual([{ timestamp: '2026-03-04T08:30:00.123Z', action: 'edit', tokens: 7 }]);
  });

  it('is the time the list, its ranges and the day buckets go by', async () => {
    const scan = await submitScan(ctx, {
      tool: 'list-tool',
      action: 'edit',
      tokens: 11,
      created_at: '2025-02-03T12:00:00Z',
    });
    const day = await listScans(ctx, 'since=2025-02-03&until=2025-02-03');
    expect(day.scans.map((row) => row.id)).toEqual([scan.id]);
    expect((await listScans(ctx, 'since=2025-02-04&tool=list-tool')).scans).toEqual([]);
    const stats = (
      await ctx.request({ method: 'GET', url: '/v1/stats/tokens?since=2025-02-01&until=2025-02-28&bucket=day' })
    ).json() as TokenStats;
    expect(stats.buckets.filter((bucket) => bucket.scans > 0)).toEqual([
      expect.objectContaining({ start: '2025-02-03T00:00:00.000Z', scans: 1, tokens: 11 }),
    ]);
  });

  it('takes a time up to 5 minutes ahead of the clock and refuses one further ahead, storing nothing', async () => {
    const soon = new Date(Date.now() + 4 * 60_000).toISOString();
    expect((await submitScan(ctx, { tool: 'cursor', action: 'edit', tokens: 1, created_at: soon })).created_at).toBe(
      soon,
    );
    const before = await scanCount();
    for (const created_at of [new Date(Date.now() + 6 * 60_000).toISOString(), '9999-12-31T23:59:59.999Z']) {
      const response = await ctx.request({
        method: 'POST',
        url: '/v1/scans',
        payload: { tool: 'cursor', action: 'edit', tokens: 1, created_at },
      });
      const error = expectError(response, 400, 'validation_failed');
      expect(error.details).toEqual([
        { field: 'created_at', message: "must be at most 5 minutes ahead of the server's clock" },
      ]);
    }
    for (const created_at of ['yesterday', '2026-02-30T00:00:00Z', '2026-11-01']) {
      const response = await ctx.request({
        method: 'POST',
        url: '/v1/scans',
        payload: { tool: 'cursor', action: 'edit', tokens: 1, created_at },
      });
      expect(expectError(response, 400, 'validation_failed').details[0]!.field).toBe('created_at');
    }
    expect(await scanCount()).toBe(before);
  });

  it("is evaluated at once by the organization's policy of the moment it is stored, whatever its time", async () => {
    await putPolicy(ctx, orgId, { ...OPEN, max_tokens_per_scan: 100 });
    const old = await submitScan(ctx, {
      tool: 'cursor',
      action: 'edit',
      tokens: 500,
      organization_id: orgId,
      created_at: '2001-01-01T00:00:00Z',
    });
    expect(old.violations.map((violation) => violation.rule)).toEqual(['tokens.scan_limit']);
  });

  it('puts the scan in the re-evaluation ranges of its own time, not of when it was stored', async () => {
    const org = await createOrg(ctx, 'Reevaluated');
    await putPolicy(ctx, org, OPEN);
    const late = await submitScan(ctx, {
      tool: 'cursor',
      action: 'edit',
      tokens: 500,
      organization_id: org,
      created_at: '2024-06-15T09:00:00Z',
    });
    expect(late.violation_count).toBe(0);
    await putPolicy(ctx, org, { ...OPEN, max_tokens_per_scan: 100 });
    const reevaluate = (since: string, until: string) =>
      ctx.request({ method: 'POST', url: `/v1/organizations/${org}/policy/reevaluate`, payload: { since, until } });

    // A range around when it was stored (today) leaves it alone.
    const today = new Date().toISOString().slice(0, 10);
    const missed = await reevaluate(today, today);
    expect(missed.statusCode, missed.body).toBe(200);
    expect(missed.body).toContain('"changed_scans":0');
    const untouched = (await ctx.request({ method: 'GET', url: `/v1/scans/${late.id}` })).json() as Scan;
    expect(untouched.violation_count).toBe(0);

    // The range of its created_at re-evaluates it.
    const hit = await reevaluate('2024-06-15', '2024-06-15');
    expect(hit.statusCode, hit.body).toBe(200);
    expect(hit.body).toContain('"changed_scans":1');
    const changed = (await ctx.request({ method: 'GET', url: `/v1/scans/${late.id}` })).json() as Scan;
    expect(changed.violations.map((violation) => violation.rule)).toEqual(['tokens.scan_limit']);
  });
});
