/**
 * A sync's bounds: a page whose package is over the size limit is split until each part fits, and
 * a scan too big alone is named and skipped (the rest stored, the cursor past it); a remote that
 * stops answering mid-body is given up on within the client's timeouts, the run `partial`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMPORT_LIMITS } from '../../../src/main/evidence/import/import-limits';
import type { ScanList } from '../../../src/shared/api/scans';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-upstream/fake-upstream';
import { submitScan } from '../../helpers/scan-fixtures';
import { addRemote, counts, startServed, syncNow, type ServedContext } from '../../helpers/sync-world';
import { createTestContext, type TestContext } from '../../helpers/test-app';

async function packageBytes(team: ServedContext, ids: string[]): Promise<number> {
  const response = await team.request({ method: 'POST', url: '/v1/evidence/exports', payload: { scan_ids: ids } });
  expect(response.statusCode).toBe(200);
  return response.rawPayload.length;
}

describe('a page over the package limit', () => {
  let team: ServedContext;
  let laptop: TestContext;
  let small: string[];

  beforeAll(async () => {
    team = await startServed();
    small = [];
    for (let n = 0; n < 4; n++)
      small.push((await submitScan(team, { tool: 'vim', action: `small-${n}`, tokens: n })).id);
    // Room for any one of them, not for two.
    const one = Math.max(...(await Promise.all(small.map((id) => packageBytes(team, [id])))));
    expect(await packageBytes(team, small.slice(0, 2))).toBeGreaterThan(one + 64);
    laptop = await createTestContext({ sync: { limits: { ...DEFAULT_IMPORT_LIMITS, bodyBytes: one + 64 } } });
    await addRemote(laptop, { name: 'team', url: team.url, token: team.owner.token });
  });
  afterAll(async () => {
    await laptop?.close();
    await team?.close();
  });

  it('is split until each part fits', async () => {
    const { summary } = await syncNow(laptop, 'team');
    expect(counts(summary)).toMatchObject({ outcome: 'done', new: 4 });
  });

  it('names a scan too big alone, stores the rest, and moves past it', async () => {
    const timeline = Array.from({ length: 400 }, (_, n) => ({
      timestamp: new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString(),
      action: 'a long action name that takes room in the package',
      tokens: 1,
    }));
    const big = await submitScan(team, { tool: 'vim', action: 'big', tokens: 400, timeline });
    await submitScan(team, { tool: 'vim', action: 'after-big', tokens: 1 });
    const { summary } = await syncNow(laptop, 'team');
    expect(summary.outcome).toBe('partial');
    expect(summary.errors).toEqual([{ what: big.id, why: expect.stringContaining('larger than') }]);
    expect(summary.pulled.new).toBe(1);
    const scans = ((await laptop.request({ method: 'GET', url: '/v1/scans?limit=50' })).json() as ScanList).scans;
    expect(scans.map((s) => s.action)).toContain('after-big');
    expect(scans.map((s) => s.action)).not.toContain('big');
    const again = await syncNow(laptop, 'team');
    expect(counts(again.summary)).toMatchObject({ outcome: 'done', new: 0 });
  });
});

describe('a remote that stops answering', () => {
  let upstream: FakeUpstream;
  let laptop: TestContext;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ scans: [{ id: 'u1' }, { id: 'u2' }] });
    laptop = await createTestContext({ sync: { timeouts: { headersMs: 300, bodyMs: 300 } } });
    await addRemote(laptop, { name: 'up', url: upstream.url, token: upstream.token });
  });
  afterAll(async () => {
    await laptop?.close();
    await upstream?.close();
  });

  it('is given up on within the timeouts, and the next run goes on', async () => {
    upstream.failNext('GET /v1/scans/:scan_id/evidence/download', { kind: 'stall', afterBytes: 5 });
    const { summary } = await syncNow(laptop, 'up');
    expect(summary.outcome).toBe('partial');
    expect(summary.errors).toEqual([{ what: 'pull', why: expect.stringContaining('in time') }]);
    const again = await syncNow(laptop, 'up');
    expect(counts(again.summary)).toMatchObject({ outcome: 'done', new: 2 });
  });
});
