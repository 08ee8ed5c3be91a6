/**
 * GET /v1/exports/scans: the whole filtered list as CSV or JSON, streamed in keyset pages; the
 * same rows, in the same order, as paging through GET /v1/scans; CSV escaped and safe to open in
 * a spreadsheet; another user's scans never in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanList, ScanSummary } from '../../../src/shared/api/scans';
import { expectError } from '../../helpers/assertions';
import { createOrg, fixtureScanId, insertScans, setRole } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const T0 = Date.UTC(2026, 10, 1);
const MANY = 2500;

describe('GET /v1/exports/scans', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let outsider: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.createUser('admin');
    outsider = await ctx.createUser('outsider');
    orgId = await createOrg(ctx, 'Acme');
    await setRole(ctx, orgId, admin, 'admin');
    const tools = ['ChatGPT', 'Claude', 'a,b', '=HYPERLINK("http://x")'];
    await insertScans(ctx.db, [
      ...Array.from({ length: MANY }, (_, n) => ({
        id: fixtureScanId(n),
        created_at: T0 + (n % 700) * 60_000,
        submitted_by: n % 5 === 0 ? admin.id : ctx.owner.id,
        organization_id: n % 3 === 0 ? orgId : null,
        tool: tools[n % tools.length]!,
        action: n % 11 === 0 ? 'say "hi"\nthere' : '-1+2',
        tokens: (n * 7919) % 5000,
        violation_count: n % 4 === 0 ? 2 : 0,
        worst: 'high' as const,
      })),
      { id: fixtureScanId(MANY), created_at: T0, submitted_by: outsider.id, tool: 'secret' },
    ]);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const download = (query: string, as?: TestUser) =>
    ctx.request({ method: 'GET', url: `/v1/exports/scans${query}`, as });

  async function listAll(query: string, as?: TestUser): Promise<ScanSummary[]> {
    const rows: ScanSummary[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = (
        await ctx.request({ method: 'GET', url: `/v1/scans?limit=200&offset=${offset}${query}`, as })
      ).json() as ScanList;
      rows.push(...page.scans);
      if (page.scans.length < 200) return rows;
    }
  }

  it('answers the same rows in the same order as paging through the list, for any filters and order', async () => {
    for (const query of [
      '',
      '&tool=Claude',
      '&tool_prefix=c&sort=tokens',
      '&has_violations=true&sort=tokens',
      '&organization_id=' + orgId,
      '&since=2026-11-01T05:00:00Z&until=2026-11-01T09:00:00Z&sort=-tokens',
    ]) {
      for (const as of [undefined, admin]) {
        const response = await download(`?format=json${query}`, as);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(JSON.parse(response.body), query).toEqual(await listAll(query, as));
      }
    }
  });

  it('writes CSV with a header, one record per scan, quoted and formula-safe', async () => {
    const response = await download('?sort=created_at');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="scandesk-scans-[\d-]+\.csv"/);
    const body = response.body;
    expect(
      body.startsWith(
        'id,created_at,tool,action,tokens,status,source,organization_id,request_count,violation_count,worst_severity\r\n',
      ),
    ).toBe(true);
    // Scan 0: the owner's, in the organization, the quoted multi-line action, two high violations.
    expect(body).toContain(
      `${fixtureScanId(0)},2026-11-01T00:00:00.000Z,ChatGPT,"say ""hi""\nthere",0,completed,submitted,${orgId},1,2,high\r\n`,
    );
    // Scans 2 and 3: a comma quoted; a formula and a leading minus neutralised.
    expect(body).toContain(`${fixtureScanId(2)},2026-11-01T00:02:00.000Z,"a,b",'-1+2,`);
    expect(body).toContain(`${fixtureScanId(3)},2026-11-01T00:03:00.000Z,"'=HYPERLINK(""http://x"")",'-1+2,`);
    const records = body.split('\r\n').filter(Boolean).length - 1;
    expect(records).toBe((await listAll('')).length);
    expect(body).not.toContain('secret');
  });

  it("never holds another user's scans; an outsider gets only theirs", async () => {
    const response = await download('?format=json', outsider);
    expect((JSON.parse(response.body) as ScanSummary[]).map((s) => s.id)).toEqual([fixtureScanId(MANY)]);
    const empty = await download('?format=json&tool=nothing-like-this', outsider);
    expect(JSON.parse(empty.body)).toEqual([]);
  });

  it('refuses an unknown format, paging parameters and bad filters', async () => {
    for (const [query, field] of [
      ['?format=xml', 'format'],
      ['?limit=5', 'limit'],
      ['?since=yesterday', 'since'],
    ] as const) {
      const { details } = expectError(await download(query), 400, 'validation_failed');
      expect(details.map((d) => d.field)).toContain(field);
    }
  });
});
