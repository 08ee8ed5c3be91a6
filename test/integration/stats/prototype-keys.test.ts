import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenStats, ViolationStats } from '../../../src/shared/api/stats';
import { json, postZip, timelineOf, upstreamEvidence } from '../../helpers/import-fixtures';
import { submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';
import { buildZip } from '../../helpers/zip-builder';

// Rules, tools and actions are names users choose; the names of Object.prototype's members are
// names like any other. Tallied into `{}`, `constructor` read a function (and answered 500) and
// `__proto__` replaced the tally's prototype instead of counting.

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe('stats keyed by names that Object.prototype uses', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    // One imported scan on 2026-11-02 with a violation of every rule, two of `constructor`.
    const violations = [...NAMES, 'constructor'].map((rule, i) => ({
      id: `vio_proto_${i}`,
      rule,
      severity: 'high',
      message: `rule ${rule}`,
      timeline_index: null,
    }));
    const evidence = upstreamEvidence('scan_proto', timelineOf(2, Date.UTC(2026, 10, 2, 12)), { violations });
    const response = await postZip(ctx, buildZip([{ name: 'evidence.json', data: json(evidence) }]));
    expect(response.statusCode, response.body).toBe(201);
    // Submitted scans (created now) under each name as tool and action.
    for (const [i, name] of NAMES.entries()) {
      await submitScan(ctx, { tool: name, action: name, tokens: 10 * (i + 1) });
    }
  });
  afterAll(() => ctx.close());

  // Not a literal: `{ __proto__: 1 }` would set (here: ignore) a prototype, not make a key.
  const expectedRules = Object.fromEntries(NAMES.map((name) => [name, name === 'constructor' ? 2 : 1]));

  /** Own keys of a parsed answer: JSON.parse makes `__proto__` an own key like any other. */
  const own = (record: Record<string, unknown>) =>
    Object.fromEntries(Object.keys(record).map((key) => [key, record[key]]));

  it.each([
    ['from the day rollup', ''],
    ['from the violations of a partial day', '?since=2026-11-02T06:00:00Z&until=2026-11-02T18:00:00Z'],
    ['from both', '?since=2026-11-01T06:00:00Z&until=2026-11-03T18:00:00Z'],
  ])('/v1/stats/violations counts every rule %s', async (_, query) => {
    const response = await ctx.request({ method: 'GET', url: `/v1/stats/violations${query}` });
    expect(response.statusCode, response.body).toBe(200);
    const stats = response.json() as ViolationStats;
    expect(Object.keys(stats.by_rule).sort()).toEqual(Object.keys(expectedRules).sort());
    expect(own(stats.by_rule)).toEqual(own(expectedRules));
    expect(stats.by_severity.high).toBe(6);
  });

  it.each(['tool', 'action'])('/v1/stats/tokens?group_by=%s keeps a group for every name', async (groupBy) => {
    for (const bucket of ['day', 'hour']) {
      const response = await ctx.request({
        method: 'GET',
        url: `/v1/stats/tokens?bucket=${bucket}&group_by=${groupBy}&since=${new Date(Date.now() - 86_400_000).toISOString()}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const groups = new Map<string, number>();
      for (const b of (response.json() as TokenStats).buckets) {
        for (const key of Object.keys(b.groups ?? {})) {
          groups.set(key, (groups.get(key) ?? 0) + b.groups![key]!.tokens);
        }
      }
      expect(Object.fromEntries(groups)).toEqual(Object.fromEntries(NAMES.map((name, i) => [name, 10 * (i + 1)])));
    }
  });

  it('the scan list filters by such a tool', async () => {
    const response = await ctx.request({ method: 'GET', url: '/v1/scans?tool=__proto__' });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as { total: number }).total).toBe(1);
  });
});
