import { afterEach, describe, expect, it } from 'vitest';
import type { OriginList } from '../../../src/shared/api/origins';
import type { ScanList } from '../../../src/shared/api/scans';
import type { TokenStats, ViolationStats } from '../../../src/shared/api/stats';
import { fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { insertRemote } from '../../helpers/sync-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';

// docs/contract/api.md#origins: the scans made here and those pulled from each remote, apart or
// together, in the list, its total and the overview's stats; and what the origin filter offers.

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1);

describe('origins', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('tells this store and each remote apart in the list, the stats and the choices', async () => {
    ctx = await createTestContext();
    const other = await ctx.createUser('other');
    const team = (await insertRemote(ctx.db, { id: 'rmt_team', name: 'team', user_id: ctx.owner.id })).id;
    await insertRemote(ctx.db, { id: 'rmt_lab', name: 'lab', user_id: ctx.owner.id });
    await insertRemote(ctx.db, { id: 'rmt_theirs', name: 'theirs', user_id: other.id });
    // Three local scans and two pulled from `team`, over two days (the second half a day).
    await insertScans(ctx.db, [
      { id: fixtureScanId(1), created_at: START + 1000, submitted_by: ctx.owner.id, tokens: 10 },
      { id: fixtureScanId(2), created_at: START + DAY + 1000, submitted_by: ctx.owner.id, tokens: 20 },
      { id: fixtureScanId(3), created_at: START + 2000, submitted_by: ctx.owner.id, tokens: 30, violation_count: 1 },
      {
        id: fixtureScanId(4),
        created_at: START + 3000,
        submitted_by: ctx.owner.id,
        tokens: 400,
        origin: { remote_id: team, id: 'scan_REMOTE4' },
      },
      {
        id: fixtureScanId(5),
        created_at: START + DAY + 3000,
        submitted_by: ctx.owner.id,
        tokens: 500,
        origin: { remote_id: team, id: 'scan_REMOTE5' },
      },
    ]);
    const get = async <T>(url: string, as = ctx!.owner): Promise<T> => {
      const response = await ctx!.request({ method: 'GET', url, as });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response.json() as T;
    };

    // The owner's remotes are offered, `lab` without scans yet; another user's are not.
    expect(await get<OriginList>('/v1/stats/origins')).toEqual({
      origins: [
        { origin: 'local', scans: 3 },
        { origin: 'lab', scans: 0 },
        { origin: 'team', scans: 2 },
      ],
    });
    expect(await get<OriginList>('/v1/stats/origins', other)).toEqual({
      origins: [
        { origin: 'local', scans: 0 },
        { origin: 'theirs', scans: 0 },
      ],
    });

    const pulled = await get<ScanList>('/v1/scans?origin=team');
    expect(pulled.total).toBe(2);
    expect(pulled.scans.map((scan) => scan.origin)).toEqual([
      { remote: 'team', id: 'scan_REMOTE5' },
      { remote: 'team', id: 'scan_REMOTE4' },
    ]);
    const local = await get<ScanList>('/v1/scans?origin=local&limit=1');
    expect(local.total).toBe(3);
    expect(local.scans[0]).not.toHaveProperty('origin');
    // A whole day from the rollup, the half day after it from the scans.
    const range = `since=${new Date(START).toISOString()}&until=${new Date(START + DAY + DAY / 2).toISOString()}`;
    expect((await get<ScanList>(`/v1/scans?origin=team&${range}`)).total).toBe(2);
    expect((await get<ScanList>('/v1/scans?origin=lab')).total).toBe(0);
    expect((await get<ScanList>('/v1/scans?origin=nowhere')).total).toBe(0);

    const tokens = async (query: string) =>
      (await get<TokenStats>(`/v1/stats/tokens?${range}${query}`)).buckets.map((b) => [b.tokens, b.scans]);
    expect(await tokens('')).toEqual([
      [440, 3],
      [520, 2],
    ]);
    expect(await tokens('&origin=local')).toEqual([
      [40, 2],
      [20, 1],
    ]);
    expect(await tokens('&origin=team')).toEqual([
      [400, 1],
      [500, 1],
    ]);
    expect(await tokens('&origin=lab')).toEqual([]);
    expect(await tokens('&origin=team&bucket=hour')).toHaveLength(2);

    const violations = async (query: string) =>
      (await get<ViolationStats>(`/v1/stats/violations?${range}${query}`)).by_severity;
    // Fixture scans carry counts, not violation rows: one row, on the local scan, says the filter reaches them.
    await ctx.db
      .insertInto('violations')
      .values({
        id: 'violation_1',
        scan_id: fixtureScanId(3),
        seq: 0,
        rule: 'r',
        severity: 'high',
        message: 'm',
        timeline_index: null,
      })
      .execute();
    expect((await violations('&origin=local')).high).toBe(1);
    expect((await violations('&origin=team')).high).toBe(0);

    // Removing a remote keeps what it brought, as local data.
    await ctx.db.deleteFrom('remotes').where('id', '=', team).execute();
    expect((await get<ScanList>('/v1/scans?origin=local')).total).toBe(5);
    expect(await tokens('&origin=local')).toEqual([
      [440, 3],
      [520, 2],
    ]);
    expect((await get<ScanList>('/v1/scans?origin=local')).scans[0]!.origin).toEqual({
      remote: null,
      id: 'scan_REMOTE5',
    });
  });

  it('keeps `local` from being a remote name, and refuses an origin that cannot be one', async () => {
    ctx = await createTestContext();
    const response = await ctx.request({
      method: 'POST',
      url: '/v1/remotes',
      payload: { name: 'local', url: 'http://127.0.0.1:9', token: 'sdt_x' },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.body).toContain('local');
    for (const url of ['/v1/scans?origin=Team', '/v1/stats/tokens?origin=', '/v1/stats/violations?origin=a%20b']) {
      const refused = await ctx.request({ method: 'GET', url });
      expect(refused.statusCode, url).toBe(400);
    }
  });
});
