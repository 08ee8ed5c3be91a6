/**
 * GET /v1/tools and `tool_prefix` on the scan list: the viewer's tool filter matches the start of
 * a name whatever its letter case (as policies compare tools), suggests only tools of scans the
 * caller can see, and takes `%` and `_` as themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanList } from '../../../src/shared/api/scans';
import type { ToolList } from '../../../src/shared/api/tools';
import { expectError } from '../../helpers/assertions';
import {
  createOrg,
  fixtureScanId,
  insertScans,
  listScans,
  setRole,
  type ScanFixture,
} from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const T0 = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;
const OWNER_TOOLS = ['Cursor', 'cursor-agent', 'CURSORY', 'Claude', 'Claude Code', '100%_x', '100x', 'a_b', 'ab'];

describe('tool names: GET /v1/tools and tool_prefix', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let outsider: TestUser;
  let scans: ScanFixture[];

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.createUser('admin');
    outsider = await ctx.createUser('outsider');
    const orgId = await createOrg(ctx, 'Acme');
    await setRole(ctx, orgId, admin, 'admin');
    scans = Array.from({ length: 600 }, (_, n) => ({
      id: fixtureScanId(n),
      // Three days and a bit: day rollups and partial days both count in a ranged total.
      created_at: T0 + (n % 80) * HOUR + n * 1000,
      submitted_by: ctx.owner.id,
      organization_id: n % 4 === 0 ? orgId : null,
      tool: OWNER_TOOLS[n % OWNER_TOOLS.length]!,
      status: n % 7 === 0 ? ('failed' as const) : ('completed' as const),
      violation_count: n % 5 === 0 ? 1 : 0,
    }));
    scans.push(
      { id: fixtureScanId(600), created_at: T0, submitted_by: outsider.id, tool: 'Curious' },
      { id: fixtureScanId(601), created_at: T0 + HOUR, submitted_by: admin.id, tool: 'curl', organization_id: orgId },
    );
    await insertScans(ctx.db, scans);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const visibleTo = (user: TestUser): ScanFixture[] =>
    user === outsider
      ? scans.filter((s) => s.submitted_by === outsider.id)
      : user === admin
        ? scans.filter((s) => s.submitted_by === admin.id || s.organization_id)
        : scans.filter((s) => s.submitted_by !== outsider.id);

  const tools = async (query: string, as?: TestUser): Promise<ToolList> => {
    const response = await ctx.request({ method: 'GET', url: `/v1/tools${query}`, as });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ToolList;
  };

  const counts = (fixtures: ScanFixture[]): { name: string; scans: number }[] => {
    const byName = new Map<string, number>();
    for (const s of fixtures) byName.set(s.tool!, (byName.get(s.tool!) ?? 0) + 1);
    return [...byName].map(([name, n]) => ({ name, scans: n }));
  };

  it('lists the tools of the visible scans with their counts, by name letter case aside', async () => {
    const all = await tools('');
    expect(all.tools.map((tool) => tool.name)).toEqual([
      '100%_x',
      '100x',
      'a_b',
      'ab',
      'Claude',
      'Claude Code',
      'curl',
      'Cursor',
      'cursor-agent',
      'CURSORY',
    ]);
    expect(all.tools).toEqual(expect.arrayContaining(counts(visibleTo(ctx.owner))));
    expect(all.tools).toHaveLength(counts(visibleTo(ctx.owner)).length);
    expect((await tools('', outsider)).tools).toEqual([{ name: 'Curious', scans: 1 }]);
    const asAdmin = await tools('', admin);
    expect(asAdmin.tools).toEqual(expect.arrayContaining(counts(visibleTo(admin))));
    expect(asAdmin.tools).toHaveLength(counts(visibleTo(admin)).length);
  });

  it('keeps with prefix the tools whose names start with it, letter case aside', async () => {
    const names = async (prefix: string, as?: TestUser) =>
      (await tools(`?prefix=${encodeURIComponent(prefix)}`, as)).tools.map((tool) => tool.name);
    expect(await names('cur')).toEqual(['curl', 'Cursor', 'cursor-agent', 'CURSORY']);
    expect(await names('CURSOR')).toEqual(['Cursor', 'cursor-agent', 'CURSORY']);
    expect(await names('Cursor-')).toEqual(['cursor-agent']);
    expect(await names('claude c')).toEqual(['Claude Code']);
    expect(await names('cur', outsider)).toEqual(['Curious']);
    expect(await names('zzz')).toEqual([]);
    // Plain characters, not LIKE wildcards.
    expect(await names('100%')).toEqual(['100%_x']);
    expect(await names('a_')).toEqual(['a_b']);
    expect(await names('_')).toEqual([]);
  });

  it('filters the list by tool_prefix as by the exact names it stands for, whatever the other filters', async () => {
    const cases: [string, TestUser, (tool: string) => boolean][] = [
      ['tool_prefix=cur', ctx.owner, (t) => t.toLowerCase().startsWith('cur')],
      ['tool_prefix=CURSOR', ctx.owner, (t) => t.toLowerCase().startsWith('cursor')],
      ['tool_prefix=cur', admin, (t) => t.toLowerCase().startsWith('cur')],
      ['tool_prefix=cur', outsider, (t) => t === 'Curious'],
      ['tool_prefix=100%25', ctx.owner, (t) => t === '100%_x'],
      ['tool_prefix=a_', ctx.owner, (t) => t === 'a_b'],
      ['tool_prefix=zzz', ctx.owner, () => false],
    ];
    for (const [query, as, wanted] of cases) {
      for (const extra of [
        '',
        '&since=2026-11-01T07:30:00Z&until=2026-11-03',
        '&status=failed',
        '&has_violations=true',
      ]) {
        const expected = visibleTo(as)
          .filter((s) => wanted(s.tool!))
          .filter(
            (s) => !extra.includes('since') || (s.created_at >= T0 + 7.5 * HOUR && s.created_at < T0 + 3 * 24 * HOUR),
          )
          .filter((s) => !extra.includes('failed') || s.status === 'failed')
          .filter((s) => !extra.includes('has_violations') || (s.violation_count ?? 0) > 0)
          .map((s) => s.id)
          .sort();
        const ids: string[] = [];
        let total = 0;
        for (let offset = 0; offset === 0 || offset < total; offset += 200) {
          const page = await listScans(ctx, `${query}${extra}&limit=200&offset=${offset}`, as);
          ids.push(...page.scans.map((scan) => scan.id));
          total = page.total;
        }
        expect(ids.sort(), `${query}${extra}`).toEqual(expected);
        expect(total, `${query}${extra}`).toBe(expected.length);
      }
    }
  });

  it('keeps tool= exact: no prefix, no folding', async () => {
    const list = async (query: string): Promise<ScanList> =>
      (await ctx.request({ method: 'GET', url: `/v1/scans?${query}` })).json() as ScanList;
    expect((await list('tool=cursor')).total).toBe(0);
    expect((await list('tool=Cursor')).total).toBe(scans.filter((s) => s.tool === 'Cursor').length);
    expect((await list('tool=Cursor&tool_prefix=cursor-')).total).toBe(0);
  });

  it('refuses an empty or over-long prefix, naming it', async () => {
    for (const [url, field] of [
      ['/v1/scans?tool_prefix=', 'tool_prefix'],
      [`/v1/scans?tool_prefix=${'a'.repeat(101)}`, 'tool_prefix'],
      ['/v1/tools?prefix=', 'prefix'],
      ['/v1/tools?unknown=1', 'unknown'],
    ] as const) {
      const details = expectError(await ctx.request({ method: 'GET', url }), 400, 'validation_failed').details;
      expect(
        details.map((detail) => detail.field),
        url,
      ).toContain(field);
    }
  });
});
