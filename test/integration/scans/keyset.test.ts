import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_LIST_SORTS, type ScanList } from '../../../src/shared/api/scans';
import { expectError } from '../../helpers/assertions';
import { fixtureScanId, insertScans, type ScanFixture } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';

const BASE = Date.UTC(2026, 9, 20, 8, 0, 0, 0);
const COUNT = 437;

describe('scans list: keyset paging with after= (extension)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
    // Ties on created_at (three per instant) and on tokens (17 values), ids not in creation order.
    const scans = Array.from({ length: COUNT }, (_, i): ScanFixture => ({
      id: fixtureScanId(((i * 7919) % COUNT) + 1),
      created_at: BASE + Math.floor(i / 3) * 60_000,
      submitted_by: ctx.owner.id,
      tool: i % 2 === 0 ? 'cursor' : 'claude-code',
      tokens: (i % 17) * 100,
      organization_id: null,
      violation_count: i % 5 === 0 ? 1 : 0,
    }));
    await insertScans(ctx.db, scans);
  });
  afterAll(() => ctx.close());

  async function list(query: string): Promise<ScanList> {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans?${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it.each(SCAN_LIST_SORTS)('walking with after= matches walking with offset= (sort=%s)', async (sort) => {
    const byOffset: string[] = [];
    for (let offset = 0; offset < COUNT; offset += 50) {
      byOffset.push(...(await list(`sort=${sort}&limit=50&offset=${offset}`)).scans.map((s) => s.id));
    }
    const byKeyset: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await list(`sort=${sort}&limit=50${after ? `&after=${after}` : ''}`);
      expect(page.total).toBe(COUNT);
      if (page.scans.length === 0) break;
      byKeyset.push(...page.scans.map((s) => s.id));
      after = page.scans[page.scans.length - 1]!.id;
    }
    expect(byKeyset).toEqual(byOffset);
    expect(new Set(byKeyset).size).toBe(COUNT);
  });

  it('combines with filters, and offset counts from the cursor', async () => {
    const all = (await list('tool=cursor&has_violations=true&limit=500')).scans.map((s) => s.id);
    const cursor = all[10]!;
    const next = await list(`tool=cursor&has_violations=true&limit=5&after=${cursor}`);
    expect(next.scans.map((s) => s.id)).toEqual(all.slice(11, 16));
    expect(next.total).toBe(all.length);
    const skipped = await list(`tool=cursor&has_violations=true&limit=5&offset=3&after=${cursor}`);
    expect(skipped.scans.map((s) => s.id)).toEqual(all.slice(14, 19));
  });

  it('refuses a cursor that is not a scan the caller can see', async () => {
    const error = expectError(
      await ctx.request({ method: 'GET', url: '/v1/scans?after=scan_nope' }),
      400,
      'validation_failed',
    );
    expect(error.details).toEqual([{ field: 'after', message: 'is not a scan you can see' }]);
    const stranger = await ctx.createUser('stranger');
    const first = (await list('limit=1')).scans[0]!.id;
    expectError(
      await ctx.request({ method: 'GET', url: `/v1/scans?after=${first}`, as: stranger }),
      400,
      'validation_failed',
    );
  });
});
