import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanList } from '../../../src/shared/api/scans';
import { expectError } from '../../helpers/assertions';
import {
  createOrg,
  fixtureScanId,
  insertScans,
  listScans,
  walkScans,
  type ScanFixture,
} from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const MIDNIGHT = Date.UTC(2026, 10, 1); // 2026-11-01T00:00:00.000Z
const BASE = Date.UTC(2026, 9, 31, 23, 0, 0, 0);
const TOOLS = ['claude-code', 'cursor', 'copilot', 'aider'] as const;
const GENERATED = 1231;
const VISIBLE = GENERATED + 3;
const HIDDEN = 100;

describe('scans list: pagination, order, filters', () => {
  let ctx: TestContext;
  let other: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let visible: ScanFixture[];
  let hidden: ScanFixture[];

  beforeAll(async () => {
    ctx = await createTestContext();
    other = await ctx.createUser('other');
    orgId = await createOrg(ctx, 'Acme');
    otherOrgId = await createOrg(ctx, 'Other', other);

    // Ids are a permutation of creation order, so that the id tiebreak is not insertion order.
    const idFor = (i: number): string => fixtureScanId(((i * 7919) % (VISIBLE + HIDDEN)) + 1);
    visible = Array.from({ length: GENERATED }, (_, i): ScanFixture => ({
      id: idFor(i),
      // Three scans share each created_at.
      created_at: BASE + Math.floor(i / 3) * 15_013,
      submitted_by: ctx.owner.id,
      tool: TOOLS[i % 4],
      action: `action-${i % 3}`,
      tokens: i,
      status: i % 10 === 0 ? 'failed' : 'completed',
      organization_id: i % 2 === 0 ? orgId : null,
      violation_count: i % 5 === 0 ? 2 : 0,
      worst: 'high',
    }));
    // Exactly at midnight and one millisecond either side of it.
    for (const [k, at] of [MIDNIGHT - 1, MIDNIGHT, MIDNIGHT + 1].entries()) {
      visible.push({ id: idFor(GENERATED + k), created_at: at, submitted_by: ctx.owner.id, tool: 'edge' });
    }
    hidden = Array.from({ length: HIDDEN }, (_, i): ScanFixture => ({
      id: idFor(VISIBLE + i),
      created_at: BASE + i * 60_000 + (i % 2 === 0 ? 0 : 15_013),
      submitted_by: other.id,
      tool: TOOLS[i % 4],
      status: i % 10 === 0 ? 'failed' : 'completed',
      organization_id: i % 2 === 0 ? otherOrgId : null,
      violation_count: i % 3 === 0 ? 1 : 0,
    }));
    // A hidden scan exactly at midnight too: boundaries must not count it.
    hidden[0]!.created_at = MIDNIGHT;
    await insertScans(ctx.db, [...hidden, ...visible]);
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Newest first, then id descending: the order of docs/contract/api.md#scan-list. */
  const ordered = (scans: readonly ScanFixture[]): string[] =>
    [...scans].sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((s) => s.id);

  const page = (query: string, as?: TestUser): Promise<ScanList> => listScans(ctx, query, as);
  const walk = (query: string, limit?: number) => walkScans(ctx, query, limit);

  async function expectMatches(query: string, predicate: (scan: ScanFixture) => boolean): Promise<number> {
    const expected = ordered(visible.filter(predicate));
    const { ids, total } = await walk(query);
    expect(total).toBe(expected.length);
    expect(ids).toEqual(expected);
    return total;
  }

  it('has some created_at values shared by several scans, so the id tiebreak matters', () => {
    const counts = new Map<number, number>();
    for (const scan of visible) counts.set(scan.created_at, (counts.get(scan.created_at) ?? 0) + 1);
    expect([...counts.values()].filter((n) => n === 3).length).toBe(410);
  });

  it('walks pages of 100: every visible scan once, in order, with the same total on every page', async () => {
    const expected = ordered(visible);
    const seen: string[] = [];
    for (let offset = 0; offset < 1300; offset += 100) {
      const body = await page(`limit=100&offset=${offset}`);
      expect(body.total).toBe(VISIBLE);
      expect(body.scans.length).toBe(offset === 1200 ? 34 : 100);
      seen.push(...body.scans.map((s) => s.id));
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(1234);
  });

  it('defaults to limit 50 and offset 0; an offset past the end gives no scans and the total', async () => {
    const first = await page('');
    expect(first.total).toBe(VISIBLE);
    expect(first.scans.map((s) => s.id)).toEqual(ordered(visible).slice(0, 50));
    expect(await page('offset=1234')).toEqual({ scans: [], total: VISIBLE });
    expect(await page('offset=99999&limit=500')).toEqual({ scans: [], total: VISIBLE });
    expect((await page('limit=500&offset=1000')).scans.map((s) => s.id)).toEqual(ordered(visible).slice(1000));
  });

  it('lists the summary fields of each scan', async () => {
    const newestGenerated = visible[GENERATED - 1]!; // i = 1230: tool TOOLS[2], failed, in the org, 2 violations
    const body = await page(`since=${new Date(newestGenerated.created_at).toISOString()}&tool=copilot`);
    expect(body).toEqual({
      total: 1,
      scans: [
        {
          id: newestGenerated.id,
          created_at: new Date(newestGenerated.created_at).toISOString(),
          tool: 'copilot',
          tokens: 1230,
          status: 'failed',
          action: 'action-0',
          organization_id: orgId,
          source: 'submitted',
          violation_count: 2,
          worst_severity: 'high',
        },
      ],
    });
    const clean = await page('has_violations=false&limit=1');
    expect(clean.scans[0]?.violation_count).toBe(0);
    expect(clean.scans[0]?.worst_severity).toBeNull();
  });

  describe('since (inclusive) and until (exclusive)', () => {
    it('cut at the exact millisecond', async () => {
      const at = new Date(MIDNIGHT).toISOString();
      const after = await expectMatches(`since=${at}`, (s) => s.created_at >= MIDNIGHT);
      const before = await expectMatches(`until=${at}`, (s) => s.created_at < MIDNIGHT);
      expect(after + before).toBe(VISIBLE);
      expect((await page(`since=${at}&until=${new Date(MIDNIGHT + 1).toISOString()}`)).scans.map((s) => s.id)).toEqual([
        visible[GENERATED + 1]!.id,
      ]);
      expect((await page(`since=${new Date(MIDNIGHT - 1).toISOString()}&until=${at}`)).total).toBe(1);
      expect(await page(`since=${at}&until=${at}`)).toEqual({ scans: [], total: 0 });
      expect(await page(`since=${new Date(MIDNIGHT + 1).toISOString()}&until=${at}`)).toEqual({ scans: [], total: 0 });
    });

    it('read a date as midnight UTC, as until the whole UTC day, and apply offsets', async () => {
      const byDateTime = await walk(`since=${new Date(MIDNIGHT).toISOString()}`);
      expect(await walk('since=2026-11-01')).toEqual(byDateTime);
      expect(await walk('since=2026-11-01T01:00:00%2B01:00')).toEqual(byDateTime);
      expect(await walk('since=2026-10-31T19:00:00-05:00')).toEqual(byDateTime);
      expect((await page('until=2026-10-31')).total).toBe(visible.filter((s) => s.created_at < MIDNIGHT).length);
      expect(await walk('until=2026-10-31')).toEqual(await walk(`until=${new Date(MIDNIGHT).toISOString()}`));
      expect((await page('since=2026-10-31&until=2026-11-01')).total).toBe(VISIBLE);
      expect((await page('since=2026-11-01&until=2026-11-01')).total).toBe(
        visible.filter((s) => s.created_at >= MIDNIGHT).length,
      );
      expect((await page('since=2026-11-02')).total).toBe(0);
    });

    it('count the first scan at its own created_at, and exclude the last one as until', async () => {
      const first = new Date(BASE).toISOString();
      const lastAt = Math.max(...visible.map((s) => s.created_at));
      const last = new Date(lastAt).toISOString();
      expect((await page(`since=${first}`)).total).toBe(VISIBLE);
      expect((await page(`until=${last}`)).total).toBe(VISIBLE - visible.filter((s) => s.created_at === lastAt).length);
    });
  });

  describe('filters and their totals', () => {
    it('tool is an exact match', async () => {
      expect(await expectMatches('tool=cursor', (s) => s.tool === 'cursor')).toBe(308);
      expect(await expectMatches('tool=edge', (s) => s.tool === 'edge')).toBe(3);
      expect(await page('tool=Cursor')).toEqual({ scans: [], total: 0 });
      expect(await page('tool=curs')).toEqual({ scans: [], total: 0 });
    });

    it('status', async () => {
      expect(await expectMatches('status=failed', (s) => s.status === 'failed')).toBe(124);
      expect(await expectMatches('status=completed', (s) => (s.status ?? 'completed') === 'completed')).toBe(1110);
      expect(await page('status=pending')).toEqual({ scans: [], total: 0 });
    });

    it('organization_id', async () => {
      expect(await expectMatches(`organization_id=${orgId}`, (s) => s.organization_id === orgId)).toBe(616);
      // Someone else's organization: nothing of it is visible.
      expect(await page(`organization_id=${otherOrgId}`)).toEqual({ scans: [], total: 0 });
    });

    it('has_violations true and false', async () => {
      const yes = await expectMatches('has_violations=true', (s) => (s.violation_count ?? 0) > 0);
      const no = await expectMatches('has_violations=false', (s) => (s.violation_count ?? 0) === 0);
      expect(yes).toBe(247);
      expect(yes + no).toBe(VISIBLE);
    });

    it('combine with each other and with since/until', async () => {
      await expectMatches(
        `tool=claude-code&has_violations=true&organization_id=${orgId}&since=2026-11-01`,
        (s) =>
          s.tool === 'claude-code' &&
          (s.violation_count ?? 0) > 0 &&
          s.organization_id === orgId &&
          s.created_at >= MIDNIGHT,
      );
      await expectMatches(
        `status=failed&until=${new Date(MIDNIGHT).toISOString()}`,
        (s) => s.status === 'failed' && s.created_at < MIDNIGHT,
      );
    });

    it('only count what the caller may see', async () => {
      const body = await page('limit=500', other);
      expect(body.total).toBe(HIDDEN);
      const atMidnight = `since=${new Date(MIDNIGHT).toISOString()}&until=${new Date(MIDNIGHT + 1).toISOString()}`;
      expect((await page(atMidnight, other)).total).toBe(hidden.filter((s) => s.created_at === MIDNIGHT).length);
      expect((await page(atMidnight)).total).toBe(1);
      expect((await page('tool=cursor', other)).total).toBe(25);
    });
  });

  describe('bad query values are refused, naming the field', () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=-5', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=x', 'offset'],
      ['since=yesterday', 'since'],
      ['since=2026-02-30', 'since'],
      ['since=2026-11-01T10:00:00', 'since'],
      ['until=2026-13-01', 'until'],
      ['until=', 'until'],
      ['has_violations=maybe', 'has_violations'],
      ['has_violations=1', 'has_violations'],
      ['status=done', 'status'],
      ['sort=newest', 'sort'],
      // No stored tool holds a control character; PostgreSQL text cannot even hold NUL.
      ['tool=a%00b', 'tool'],
      ['tool=%09', 'tool'],
      ['after=not%20an%20id', 'after'],
      ['Limit=5', 'Limit'],
    ];
    for (const [query, field] of cases) {
      it(query, async () => {
        const response = await ctx.request({ method: 'GET', url: `/v1/scans?${query}` });
        const { details } = expectError(response, 400, 'validation_failed');
        expect(details.map((d) => d.field)).toEqual([field]);
      });
    }

    it('limit=500 and limit=1 are fine', async () => {
      expect((await page('limit=500')).scans.length).toBe(500);
      expect((await page('limit=1')).scans.length).toBe(1);
    });
  });
});
