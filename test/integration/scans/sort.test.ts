import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_LIST_SORTS, type ScanList, type ScanListSort } from '../../../src/shared/api/scans';
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

const BASE = Date.UTC(2026, 9, 20, 8, 0, 0, 0);
const MIDNIGHT = Date.UTC(2026, 9, 25); // within the generated span
const TOOLS = ['claude-code', 'cursor', 'copilot'] as const;
const OWN = 700;
const IN_ORG = 60;
const HIDDEN = 90;

describe('scans list: sort (extension)', () => {
  let ctx: TestContext;
  let other: TestUser;
  let orgId: string;
  let visible: ScanFixture[];

  beforeAll(async () => {
    ctx = await createTestContext();
    other = await ctx.createUser('other');
    orgId = await createOrg(ctx, 'Acme');
    const otherOrgId = await createOrg(ctx, 'Other', other);

    // Ids are a permutation of creation order, so neither tiebreak can pass by insertion order.
    const total = OWN + IN_ORG + HIDDEN;
    const idFor = (i: number): string => fixtureScanId(((i * 7919) % total) + 1);
    const own = Array.from({ length: OWN }, (_, i): ScanFixture => ({
      id: idFor(i),
      // Two scans share each created_at, and only 41 token values occur: ties on both columns.
      created_at: BASE + Math.floor(i / 2) * 1_234_567,
      submitted_by: ctx.owner.id,
      tool: TOOLS[i % 3],
      tokens: ((i * 13) % 41) * 1000,
      organization_id: i % 4 === 0 ? orgId : null,
      violation_count: i % 5 === 0 ? 1 : 0,
    }));
    // Someone else's scans in the owner's organization: visible through the organization role.
    const inOrg = Array.from({ length: IN_ORG }, (_, i): ScanFixture => ({
      id: idFor(OWN + i),
      created_at: BASE + i * 3_600_000,
      submitted_by: other.id,
      tool: TOOLS[i % 3],
      tokens: ((i * 7) % 41) * 1000,
      organization_id: orgId,
    }));
    // Hidden scans with the most tokens of all: a sort that ignored visibility would show them first.
    const hidden = Array.from({ length: HIDDEN }, (_, i): ScanFixture => ({
      id: idFor(OWN + IN_ORG + i),
      created_at: BASE + i * 600_000,
      submitted_by: other.id,
      tool: TOOLS[i % 3],
      tokens: 1_000_000 + i,
      organization_id: i % 2 === 0 ? otherOrgId : null,
    }));
    visible = [...own, ...inOrg];
    await insertScans(ctx.db, [...hidden, ...visible]);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const byId = (a: ScanFixture, b: ScanFixture): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const COMPARE: Record<ScanListSort, (a: ScanFixture, b: ScanFixture) => number> = {
    '-created_at': (a, b) => b.created_at - a.created_at || byId(b, a),
    created_at: (a, b) => a.created_at - b.created_at || byId(a, b),
    '-tokens': (a, b) => b.tokens! - a.tokens! || byId(b, a),
    tokens: (a, b) => a.tokens! - b.tokens! || byId(a, b),
  };
  const ordered = (scans: readonly ScanFixture[], sort: ScanListSort): string[] =>
    [...scans].sort(COMPARE[sort]).map((s) => s.id);

  const page = (query: string, as?: TestUser): Promise<ScanList> => listScans(ctx, query, as);
  const walk = (query: string, limit?: number) => walkScans(ctx, query, limit);

  it('has ties on created_at and on tokens, so the id tiebreak matters', () => {
    const distinct = (values: number[]): number => new Set(values).size;
    expect(distinct(visible.map((s) => s.created_at))).toBeLessThan(visible.length);
    expect(distinct(visible.map((s) => s.tokens!))).toBe(41);
  });

  for (const sort of SCAN_LIST_SORTS) {
    it(`sort=${sort} orders every visible scan by it, ties by id in the same direction`, async () => {
      const { ids, total } = await walk(`sort=${sort}`);
      expect(total).toBe(visible.length);
      expect(ids).toEqual(ordered(visible, sort));
    });
  }

  it('without sort the order is newest first, as before', async () => {
    expect((await walk('')).ids).toEqual((await walk('sort=-created_at')).ids);
    expect((await page('limit=20')).scans.map((s) => s.id)).toEqual(ordered(visible, '-created_at').slice(0, 20));
  });

  it('pages of 50 with sort=-tokens return every visible scan once, in order, with the same total', async () => {
    const expected = ordered(visible, '-tokens');
    const seen: string[] = [];
    for (let offset = 0; offset < visible.length; offset += 50) {
      const body = await page(`sort=-tokens&limit=50&offset=${offset}`);
      expect(body.total).toBe(visible.length);
      seen.push(...body.scans.map((s) => s.id));
      for (let k = 1; k < body.scans.length; k++) {
        expect(body.scans[k - 1]!.tokens).toBeGreaterThanOrEqual(body.scans[k]!.tokens);
      }
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(visible.length);
    expect(await page(`sort=-tokens&offset=${visible.length}`)).toEqual({ scans: [], total: visible.length });
  });

  it('a page boundary inside a run of equal tokens neither repeats nor skips a scan', async () => {
    const expected = ordered(visible, 'tokens');
    // Pages of 7 cut most runs of equal token counts (about 19 scans each) somewhere in the middle.
    expect((await walk('sort=tokens', 7)).ids).toEqual(expected);
  });

  describe('filters combine with sort', () => {
    // Queries are functions: the organization's id exists only once beforeAll has run.
    const cases: [string, () => string, ScanListSort, (s: ScanFixture) => boolean][] = [
      ['tool', () => 'tool=cursor', '-tokens', (s) => s.tool === 'cursor'],
      ['since', () => `since=${new Date(MIDNIGHT).toISOString()}`, '-tokens', (s) => s.created_at >= MIDNIGHT],
      [
        'until and tool',
        () => 'until=2026-10-24&tool=copilot',
        'tokens',
        (s) => s.created_at < MIDNIGHT && s.tool === 'copilot',
      ],
      ['organization_id', () => `organization_id=${orgId}`, '-tokens', (s) => s.organization_id === orgId],
      ['has_violations', () => 'has_violations=true', 'created_at', (s) => (s.violation_count ?? 0) > 0],
      [
        'tool, has_violations and since',
        () => 'tool=claude-code&has_violations=false&since=2026-10-22',
        'tokens',
        (s) => s.tool === 'claude-code' && (s.violation_count ?? 0) === 0 && s.created_at >= Date.UTC(2026, 9, 22),
      ],
    ];
    for (const [name, filters, sort, predicate] of cases) {
      it(`${name} with sort=${sort}`, async () => {
        const expected = ordered(visible.filter(predicate), sort);
        expect(expected.length).toBeGreaterThan(5);
        const { ids, total } = await walk(`${filters()}&sort=${sort}`, 40);
        expect(total).toBe(expected.length);
        expect(ids).toEqual(expected);
      });
    }

    it('another user sees only what is visible to them, sorted', async () => {
      const body = await page('sort=-tokens&limit=3', other);
      expect(body.total).toBe(HIDDEN + IN_ORG);
      expect(body.scans.map((s) => s.tokens)).toEqual([
        1_000_000 + HIDDEN - 1,
        1_000_000 + HIDDEN - 2,
        1_000_000 + HIDDEN - 3,
      ]);
    });
  });

  describe('a bad sort is refused, naming the field', () => {
    for (const value of ['tokens-desc', '-id', 'id', 'TOKENS', '%2Btokens', '', 'created_at,tokens', 'time']) {
      it(`sort=${value}`, async () => {
        const response = await ctx.request({ method: 'GET', url: `/v1/scans?sort=${value}` });
        const { details } = expectError(response, 400, 'validation_failed');
        expect(details.map((d) => d.field)).toEqual(['sort']);
      });
    }
  });

  it('the OpenAPI document lists the parameter with its values', async () => {
    const response = await ctx.request({ method: 'GET', url: '/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string; required?: boolean; schema: unknown }[] }>
      >;
    };
    const sort = document.paths['/v1/scans']?.get?.parameters?.find((p) => p.name === 'sort');
    expect(sort).toMatchObject({
      in: 'query',
      required: false,
      schema: { enum: [...SCAN_LIST_SORTS], default: '-created_at' },
    });
  });
});
