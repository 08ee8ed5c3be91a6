import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedTimelineEntry, TimelinePage } from '../../../src/shared/api/evidence';
import type { Scan } from '../../../src/shared/api/scans';
import { expectError } from '../../helpers/assertions';
import { createOrg, setRole, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const T0 = Date.UTC(2026, 10, 1, 10, 0, 0, 0);
const iso = (ms: number): string => new Date(ms).toISOString();
const COUNT = 3000;

/**
 * Three entries share each millisecond (7 ms apart), so that since/until boundaries fall on ties;
 * every tenth entry is `shell`, the rest alternate `edit`/`read`.
 */
const expected: IndexedTimelineEntry[] = Array.from({ length: COUNT }, (_, index) => ({
  index,
  timestamp: iso(T0 + Math.floor(index / 3) * 7),
  action: index % 10 === 0 ? 'shell' : index % 2 ? 'read' : 'edit',
  tokens: (index * 37) % 101,
}));

describe('GET /v1/scans/:scan_id/evidence/timeline', () => {
  let ctx: TestContext;
  let scan: Scan;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext();
    const orgId = await createOrg(ctx, 'Acme');
    admin = await ctx.createUser('admin');
    member = await ctx.createUser('member');
    outsider = await ctx.createUser('outsider');
    await setRole(ctx, orgId, admin, 'admin');
    await setRole(ctx, orgId, member, 'member');
    scan = await submitScan(ctx, {
      tool: 'claude-code',
      action: 'session',
      tokens: expected.reduce((sum, e) => sum + e.tokens, 0),
      organization_id: orgId,
      // Submitted newest first (ties in order): stored, and so indexed, in timestamp order, ties kept.
      timeline: [...expected]
        .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || a.index - b.index)
        .map(({ timestamp, action, tokens }) => ({ timestamp, action, tokens })),
    });
  }, 60_000);
  afterAll(async () => {
    await ctx.close();
  });

  async function page(query: string, as?: TestUser): Promise<TimelinePage> {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence/timeline${query}`, as });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as TimelinePage;
    expect(Object.keys(body)).toEqual(['total', 'entries']);
    return body;
  }

  const matching = (filter: (e: IndexedTimelineEntry) => boolean) => expected.filter(filter);

  it('defaults to the first 1,000 entries and counts them all', async () => {
    const body = await page('');
    expect(body.total).toBe(COUNT);
    expect(body.entries).toEqual(expected.slice(0, 1000));
    for (const entry of body.entries.slice(0, 3)) {
      expect(Object.keys(entry)).toEqual(['index', 'timestamp', 'action', 'tokens']);
    }
  });

  it('a paging walk returns every entry once, in order, for several page sizes', async () => {
    for (const limit of [1, 7, 999, 1000, 5000]) {
      if (limit === 1) {
        // A one-row walk of 3,000 requests is slow; walk the tail only.
        const tail = [];
        for (let offset = COUNT - 5; offset < COUNT + 1; offset++) {
          tail.push(...(await page(`?offset=${offset}&limit=1`)).entries);
        }
        expect(tail).toEqual(expected.slice(COUNT - 5));
        continue;
      }
      const walked: IndexedTimelineEntry[] = [];
      for (let offset = 0; ; offset += limit) {
        const body = await page(`?offset=${offset}&limit=${limit}`);
        expect(body.total).toBe(COUNT);
        walked.push(...body.entries);
        if (body.entries.length < limit) break;
      }
      expect(walked).toEqual(expected);
    }
  });

  it('an offset past the end gives no entries and the total', async () => {
    expect(await page(`?offset=${COUNT}`)).toEqual({ total: COUNT, entries: [] });
    expect(await page('?offset=9007199254740991')).toEqual({ total: COUNT, entries: [] });
  });

  describe('since and until', () => {
    // Entries 300–302 share this millisecond; 303 is 7 ms later.
    const tie = T0 + 100 * 7;

    it('since is inclusive and until exclusive, at the exact millisecond', async () => {
      const cases: [string, (e: IndexedTimelineEntry) => boolean][] = [
        [`since=${iso(tie)}`, (e) => e.index >= 300],
        [`since=${iso(tie + 1)}`, (e) => e.index >= 303],
        [`since=${iso(tie - 1)}`, (e) => e.index >= 300],
        [`until=${iso(tie)}`, (e) => e.index < 300],
        [`until=${iso(tie + 1)}`, (e) => e.index < 303],
        [`since=${iso(tie)}&until=${iso(tie + 1)}`, (e) => e.index >= 300 && e.index < 303],
        [`since=${iso(tie)}&until=${iso(tie + 7)}`, (e) => e.index >= 300 && e.index < 303],
        [`since=${iso(tie)}&until=${iso(tie + 8)}`, (e) => e.index >= 300 && e.index < 306],
        [`since=${iso(tie + 1)}&until=${iso(tie + 7)}`, () => false],
        [`since=${iso(tie)}&until=${iso(tie)}`, () => false],
        [`since=${iso(tie + 7)}&until=${iso(tie)}`, () => false],
        [`since=${iso(T0 + 1_000_000)}`, () => false],
        [`until=${iso(T0)}`, () => false],
        ['since=2026-11-01', () => true],
        ['until=2026-11-01', () => true],
        ['until=2026-10-31', () => false],
        ['since=2026-11-02', () => false],
        [`since=${encodeURIComponent('2026-11-01T11:00:00.700+01:00')}`, (e) => e.index >= 300],
      ];
      for (const [query, filter] of cases) {
        const want = matching(filter);
        const body = await page(`?${query}&limit=5000`);
        expect(body.total, query).toBe(want.length);
        expect(body.entries, query).toEqual(want);
      }
    });

    it('pages within a window keep their timeline indexes', async () => {
      const body = await page(`?since=${iso(tie)}&offset=2&limit=4`);
      expect(body.total).toBe(COUNT - 300);
      expect(body.entries.map((e) => e.index)).toEqual([302, 303, 304, 305]);
    });
  });

  describe('action', () => {
    it('filters on the exact action and counts the matches', async () => {
      const shell = matching((e) => e.action === 'shell');
      expect(await page('?action=shell&limit=5000')).toEqual({ total: shell.length, entries: shell });
      const second = await page('?action=shell&offset=100&limit=50');
      expect(second).toEqual({ total: 300, entries: shell.slice(100, 150) });
      expect(second.entries[0]!.index).toBe(1000);
      expect(await page('?action=she')).toEqual({ total: 0, entries: [] });
      expect(await page('?action=SHELL')).toEqual({ total: 0, entries: [] });
      expect(await page('?action=shell&offset=300')).toEqual({ total: 300, entries: [] });
    });

    it('combines with since and until', async () => {
      const since = T0 + 500 * 7;
      const until = T0 + 800 * 7;
      const want = matching((e) => {
        const t = Date.parse(e.timestamp);
        return e.action === 'read' && t >= since && t < until;
      });
      const body = await page(`?action=read&since=${iso(since)}&until=${iso(until)}&limit=5000`);
      expect(body).toEqual({ total: want.length, entries: want });
      expect(body.total).toBe(450);
    });
  });

  it('refuses bad parameters with details naming each', async () => {
    const cases: [string, string[]][] = [
      ['limit=0', ['limit']],
      ['limit=5001', ['limit']],
      ['limit=1.5', ['limit']],
      ['limit=', ['limit']],
      ['offset=-1', ['offset']],
      ['offset=x', ['offset']],
      ['since=yesterday', ['since']],
      ['until=2026-02-30', ['until']],
      ['since=2026-11-01T10:00:00', ['since']],
      ['action=', ['action']],
      [`action=${'a'.repeat(101)}`, ['action']],
      ['types=timeline', ['types']],
    ];
    for (const [query, fields] of cases) {
      const response = await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence/timeline?${query}` });
      const { details } = expectError(response, 400, 'validation_failed');
      expect(
        details.map((d) => d.field),
        query,
      ).toEqual(fields);
    }
  });

  it('is visible exactly like the scan: submitter and org admins, not members or outsiders', async () => {
    expect((await page('?limit=2', admin)).entries).toEqual(expected.slice(0, 2));
    for (const user of [member, outsider]) {
      expectError(
        await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence/timeline`, as: user }),
        404,
        'not_found',
      );
      expectError(
        await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence`, as: user }),
        404,
        'not_found',
      );
    }
    expectError(
      await ctx.request({ method: 'GET', url: '/v1/scans/scan_01JZZZZZZZZZZZZZZZZZZZZZZZ/evidence/timeline' }),
      404,
      'not_found',
    );
    expectError(
      await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence/timeline`, as: null }),
      401,
      'unauthorized',
    );
  });

  it('a one-entry scan without a submitted timeline has its one entry', async () => {
    const single = await submitScan(ctx, { tool: 'cursor', action: 'chat', tokens: 7 });
    const response = await ctx.request({ method: 'GET', url: `/v1/scans/${single.id}/evidence/timeline` });
    expect(response.json()).toEqual({
      total: 1,
      entries: [{ index: 0, timestamp: single.created_at, action: 'chat', tokens: 7 }],
    });
  });
});
