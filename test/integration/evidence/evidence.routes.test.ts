import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence, TimelineBucket, TimelineBuckets } from '../../../src/shared/api/evidence';
import type { Scan } from '../../../src/shared/api/scans';
import { expectError } from '../../helpers/assertions';
import { createOrg, putPolicy, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';

const T0 = Date.UTC(2026, 10, 1, 10, 0, 0, 0);
const iso = (offsetMs: number): string => new Date(T0 + offsetMs).toISOString();

describe('evidence routes', () => {
  let ctx: TestContext;
  let orgId: string;
  let scan: Scan;
  let single: Scan;

  beforeAll(async () => {
    ctx = await createTestContext();
    orgId = await createOrg(ctx, 'Acme');
    await putPolicy(ctx, orgId, {
      max_tokens_per_scan: 200,
      max_tokens_per_request: 100,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: ['shell'],
    });
    scan = await submitScan(ctx, {
      tool: 'claude-code',
      action: 'session',
      tokens: 266,
      organization_id: orgId,
      token_breakdown: { input: 200, output: 66 },
      // Submitted out of order; stored and evaluated in timestamp order.
      timeline: [
        { timestamp: iso(4000), action: 'edit', tokens: 200 },
        { timestamp: iso(0), action: 'edit', tokens: 10 },
        { timestamp: iso(9999), action: 'shell', tokens: 1 },
        { timestamp: iso(1000), action: 'shell', tokens: 50 },
        { timestamp: iso(1500), action: 'read', tokens: 5 },
      ],
    });
    single = await submitScan(ctx, {
      tool: 'cursor',
      action: 'chat',
      tokens: 7,
      timeline: [{ timestamp: iso(123), action: 'chat', tokens: 7 }],
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function evidence(query = '', id = scan.id): Promise<Evidence> {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans/${id}/evidence${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Evidence;
  }

  async function buckets(query = '', id = scan.id): Promise<TimelineBucket[]> {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans/${id}/evidence/timeline/buckets${query}` });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as TimelineBuckets;
    expect(Object.keys(body)).toEqual(['buckets']);
    return body.buckets;
  }

  const timeline = [
    { timestamp: iso(0), action: 'edit', tokens: 10 },
    { timestamp: iso(1000), action: 'shell', tokens: 50 },
    { timestamp: iso(1500), action: 'read', tokens: 5 },
    { timestamp: iso(4000), action: 'edit', tokens: 200 },
    { timestamp: iso(9999), action: 'shell', tokens: 1 },
  ];

  it('the submitted scan has the violations the fixture was built for', () => {
    expect(scan.violations.map((v) => [v.rule, v.timeline_index])).toEqual([
      ['tokens.scan_limit', null],
      ['action.blocked', 1],
      ['tokens.request_limit', 3],
      ['action.blocked', 4],
    ]);
  });

  it('returns the full evidence, timeline in timestamp order', async () => {
    const body = await evidence();
    expect(Object.keys(body).sort()).toEqual(['evidence', 'scan_id']);
    expect(Object.keys(body.evidence).sort()).toEqual([
      'request_count',
      'timeline',
      'token_breakdown',
      'total_tokens',
      'violations',
    ]);
    expect(body).toEqual({
      scan_id: scan.id,
      evidence: {
        request_count: 5,
        total_tokens: 266,
        timeline,
        token_breakdown: { input: 200, output: 66 },
        violations: scan.violations,
      },
    });
    for (const entry of body.evidence.timeline!) {
      expect(Object.keys(entry).sort()).toEqual(['action', 'timestamp', 'tokens']);
    }
  });

  it('keeps request_count and total_tokens consistent with the timeline and the scan', async () => {
    for (const id of [scan.id, single.id]) {
      const { evidence: e } = await evidence('', id);
      const read = (await ctx.request({ method: 'GET', url: `/v1/scans/${id}` })).json() as Scan;
      expect(e.request_count).toBe(e.timeline!.length);
      expect(e.total_tokens).toBe(e.timeline!.reduce((sum, entry) => sum + entry.tokens, 0));
      expect(e.total_tokens).toBe(read.tokens);
      expect(e.violations).toEqual(read.violations);
    }
  });

  describe('types', () => {
    const cases: [string, string[]][] = [
      ['timeline', ['timeline']],
      ['token_breakdown', ['token_breakdown']],
      ['violations', ['violations']],
      ['timeline,violations', ['timeline', 'violations']],
      ['violations,timeline', ['timeline', 'violations']],
      ['token_breakdown,violations', ['token_breakdown', 'violations']],
      ['timeline,token_breakdown', ['timeline', 'token_breakdown']],
      ['timeline,token_breakdown,violations', ['timeline', 'token_breakdown', 'violations']],
      ['violations,violations', ['violations']],
    ];
    for (const [types, fields] of cases) {
      it(`types=${types} gives ${fields.join(', ')} and the counts`, async () => {
        const body = await evidence(`?types=${types}`);
        expect(Object.keys(body.evidence).sort()).toEqual(['request_count', 'total_tokens', ...fields].sort());
        expect(body.evidence.request_count).toBe(5);
        expect(body.evidence.total_tokens).toBe(266);
        if (fields.includes('timeline')) expect(body.evidence.timeline).toEqual(timeline);
        if (fields.includes('violations')) expect(body.evidence.violations).toEqual(scan.violations);
        if (fields.includes('token_breakdown')) {
          expect(body.evidence.token_breakdown).toEqual({ input: 200, output: 66 });
        }
      });
    }

    for (const types of [
      'summary',
      'timeline,summary',
      'Timeline',
      'timeline,',
      ',violations',
      'timeline violations',
    ]) {
      it(`refuses types=${types}`, async () => {
        const response = await ctx.request({
          method: 'GET',
          url: `/v1/scans/${scan.id}/evidence?types=${encodeURIComponent(types)}`,
        });
        const { details } = expectError(response, 400, 'validation_failed');
        expect(details.map((d) => d.field)).toEqual(['types']);
      });
    }

    it('refuses an unknown parameter', async () => {
      const { details } = expectError(
        await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence?type=timeline` }),
        400,
        'validation_failed',
      );
      expect(details.map((d) => d.field)).toEqual(['type']);
    });
  });

  describe('timeline buckets', () => {
    const bucket = (
      startMs: number,
      endMs: number,
      count: number,
      tokens: number,
      min: number,
      max: number,
      violations: number,
    ): TimelineBucket => ({
      start: iso(startMs),
      end: iso(endMs),
      count,
      tokens,
      min_tokens: min,
      max_tokens: max,
      violations,
    });

    it('n=1: one bucket over the whole timeline; scan-level violations belong to no bucket', async () => {
      expect(await buckets('?n=1')).toEqual([bucket(0, 10_000, 5, 266, 1, 200, 3)]);
    });

    it('n=2: buckets of a power-of-two width from the first entry, the last clipped to the timeline', async () => {
      expect(await buckets('?n=2')).toEqual([bucket(0, 8192, 4, 265, 5, 200, 2), bucket(8192, 10_000, 1, 1, 1, 1, 1)]);
    });

    it('n=3 and n=4: the width that needs at most n; empty buckets are left out', async () => {
      const expected = [bucket(0, 4096, 4, 265, 5, 200, 2), bucket(8192, 10_000, 1, 1, 1, 1, 1)];
      expect(await buckets('?n=3')).toEqual(expected);
      expect(await buckets('?n=4')).toEqual(expected);
    });

    it('defaults to n=500', async () => {
      const expected = [
        bucket(0, 32, 1, 10, 10, 10, 0),
        bucket(992, 1024, 1, 50, 50, 50, 1),
        bucket(1472, 1504, 1, 5, 5, 5, 0),
        bucket(4000, 4032, 1, 200, 200, 200, 1),
        bucket(9984, 10_000, 1, 1, 1, 1, 1),
      ];
      expect(await buckets()).toEqual(expected);
      expect(await buckets('?n=500')).toEqual(expected);
    });

    it('since/until zoom: buckets over the window only, the first and last clipped to it', async () => {
      expect(await buckets(`?n=4&since=${iso(900)}&until=${iso(4001)}`)).toEqual([
        bucket(900, 1024, 1, 50, 50, 50, 1),
        bucket(1024, 2048, 1, 5, 5, 5, 0),
        bucket(3072, 4001, 1, 200, 200, 200, 1),
      ]);
      expect(await buckets(`?since=${iso(10_000)}`)).toEqual([]);
      expect(await buckets(`?until=${iso(0)}`)).toEqual([]);
    });

    it('a single-entry timeline gives one bucket', async () => {
      for (const n of ['', '?n=1', '?n=2000']) {
        expect(await buckets(n, single.id)).toEqual([bucket(123, 124, 1, 7, 7, 7, 0)]);
      }
    });

    it('refuses n outside 1–2000 and unknown parameters', async () => {
      for (const query of ['n=0', 'n=2001', 'n=-1', 'n=1.5', 'n=many', 'n=']) {
        const response = await ctx.request({
          method: 'GET',
          url: `/v1/scans/${scan.id}/evidence/timeline/buckets?${query}`,
        });
        const { details } = expectError(response, 400, 'validation_failed');
        expect(
          details.map((d) => d.field),
          query,
        ).toEqual(['n']);
      }
      const { details } = expectError(
        await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence/timeline/buckets?buckets=5` }),
        400,
        'validation_failed',
      );
      expect(details.map((d) => d.field)).toEqual(['buckets']);
    });

    it('gives at most n equal-width buckets that hold every entry exactly once', async () => {
      // 1,000 entries at uneven times over about 4 hours, one blocked action in 7.
      const entries = Array.from({ length: 1000 }, (_, i) => ({
        timestamp: iso(Math.floor((i * i * 14_437) / 1000) + (i % 3)),
        action: i % 7 === 0 ? 'shell' : 'edit',
        tokens: (i * 31) % 97,
      }));
      const total = entries.reduce((sum, e) => sum + e.tokens, 0);
      const big = await submitScan(ctx, {
        tool: 't',
        action: 'a',
        tokens: total,
        organization_id: orgId,
        timeline: entries,
      });
      const perEntryViolations = big.violations.filter((v) => v.timeline_index !== null).length;
      const times = entries.map((e) => Date.parse(e.timestamp)).sort((a, b) => a - b);
      for (const n of [1, 2, 7, 10, 99, 999, 1000, 2000]) {
        const result = await buckets(`?n=${n}`, big.id);
        expect(result.length).toBeLessThanOrEqual(n);
        expect(result.length).toBeGreaterThan(0);
        // Only the last bucket is clipped (the first starts at the first entry, where the grid does).
        const width = Math.max(...result.slice(0, -1).map((b) => Date.parse(b.end) - Date.parse(b.start)), 1);
        expect(Math.log2(width) % 1).toBe(0);
        expect(result[0]!.start).toBe(new Date(times[0]!).toISOString());
        expect(Date.parse(result.at(-1)!.end)).toBeLessThanOrEqual(times.at(-1)! + 1);
        let previousEnd = -Infinity;
        for (const b of result) {
          const start = Date.parse(b.start);
          const end = Date.parse(b.end);
          if (b !== result.at(-1)) expect(end - start).toBe(width);
          if (result.length > 1) expect((start - times[0]!) % width).toBe(0);
          expect(start).toBeGreaterThanOrEqual(previousEnd);
          previousEnd = end;
          const inside = times.filter((t) => t >= start && t < end).length;
          expect(b.count).toBe(inside);
          expect(b.min_tokens).toBeLessThanOrEqual(b.max_tokens);
          expect(b.tokens).toBeGreaterThanOrEqual(b.max_tokens);
        }
        expect(result.reduce((sum, b) => sum + b.count, 0)).toBe(1000);
        expect(result.reduce((sum, b) => sum + b.tokens, 0)).toBe(total);
        expect(result.reduce((sum, b) => sum + b.violations, 0)).toBe(perEntryViolations);
        expect(Math.min(...result.map((b) => b.min_tokens))).toBe(0);
        expect(Math.max(...result.map((b) => b.max_tokens))).toBe(96);
      }
      expect(perEntryViolations).toBe(143);
    });
  });

  it('404s an unknown scan for evidence and buckets', async () => {
    for (const url of [
      '/v1/scans/scan_01JZZZZZZZZZZZZZZZZZZZZZZZ/evidence',
      '/v1/scans/scan_01JZZZZZZZZZZZZZZZZZZZZZZZ/evidence/timeline/buckets',
    ]) {
      expectError(await ctx.request({ method: 'GET', url }), 404, 'not_found');
    }
  });
});
