/**
 * A sync from a plain upstream (the fake of test/fixtures/fake-upstream, written from UPSTREAM.md
 * alone): its organizations and teams mirrored, every listed scan stored once with its evidence,
 * whatever the ZIP's layout; a second run lists only since its watermark and downloads nothing it
 * has; a list that changed below the watermark (a removal, an old-dated scan) is read whole
 * again; a broken answer costs its scan only, and the next run fetches it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanList } from '../../../src/shared/api/scans';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-upstream/fake-upstream';
import { addRemote, counts, syncNow } from '../../helpers/sync-world';
import { createTestContext, type TestContext } from '../../helpers/test-app';

const DOWNLOAD = 'GET /v1/scans/:scan_id/evidence/download';
const T0 = Date.UTC(2026, 10, 1);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

describe('sync with a plain upstream', () => {
  let upstream: FakeUpstream;
  let laptop: TestContext;

  const laptopScans = async () =>
    ((await laptop.request({ method: 'GET', url: '/v1/scans?limit=500&source=pulled' })).json() as ScanList).scans;

  beforeAll(async () => {
    upstream = await startFakeUpstream({
      organizations: [{ id: 'up_org', name: 'Acme\u001b[2J', role: 'superuser', plan: 'platinum' }],
      teams: [
        { id: 'up_t1', organization_id: 'up_org', name: 'Backend' },
        { id: 'up_t2', organization_id: 'up_org', name: 'BACKEND' },
      ],
      scans: Array.from({ length: 120 }, (_, n) => ({
        id: `up_scan_${String(n).padStart(3, '0')}`,
        created_at: at(n),
        tool: n % 2 ? 'cursor' : 'claude-code',
        tokens: 100 + n,
        action: 'chat',
        ...(n % 10 === 0
          ? { violations: [{ rule: 'pii', severity: 'high' as const, message: 'an email address' }] }
          : {}),
        // the download's layout without the scan document: the get-scan answer fills in
        ...(n % 3 === 0 ? { scanDocumentInZip: false } : {}),
      })),
    });
    laptop = await createTestContext();
    await addRemote(laptop, { name: 'up', url: upstream.url, token: upstream.token });
  });
  afterAll(async () => {
    await laptop?.close();
    await upstream?.close();
  });

  it('mirrors the organizations and teams and pulls every scan, violations included', async () => {
    const { summary } = await syncNow(laptop, 'up');
    expect(counts(summary)).toEqual({
      outcome: 'done',
      new: 120,
      changed: 0,
      unchanged: 0,
      sent: 0,
      waiting: 0,
      gone: 0,
    });
    const remote = (await laptop.request({ method: 'GET', url: '/v1/remotes' })).json() as {
      remotes: { kind: string }[];
    };
    expect(remote.remotes[0]!.kind).toBe('upstream');

    const orgs = (await laptop.request({ method: 'GET', url: '/v1/organizations' })).json() as {
      organizations: { id: string; name: string; role: string }[];
    };
    expect(orgs.organizations).toEqual([expect.objectContaining({ name: 'Acme[2J', role: 'member' })]);
    const org = (await laptop.request({ method: 'GET', url: `/v1/organizations/${orgs.organizations[0]!.id}` })).json();
    expect(org).toMatchObject({ plan: 'free' });
    const teams = (
      await laptop.request({ method: 'GET', url: `/v1/organizations/${orgs.organizations[0]!.id}/teams` })
    ).json() as { teams: { name: string }[] };
    expect(teams.teams.map((t) => t.name).sort()).toEqual(['BACKEND (up_t2)', 'Backend']);

    const scans = await laptopScans();
    expect(scans).toHaveLength(120);
    expect(scans.filter((s) => s.violation_count > 0)).toHaveLength(12);
    expect(upstream.requestCount(DOWNLOAD)).toBe(120);
  });

  it('lists only since its watermark the next time, and downloads nothing it has', async () => {
    upstream.resetRequests();
    const { summary } = await syncNow(laptop, 'up');
    expect(summary.outcome).toBe('done');
    expect(summary.pulled.new).toBe(0);
    expect(upstream.requestCount(DOWNLOAD)).toBe(0);
    // the newest scan's time, listed again (since is inclusive there): one page
    expect(upstream.requests().filter((r) => r.route === 'GET /v1/scans' && !r.path.includes('limit=1&'))).toHaveLength(
      1,
    );
  });

  it('fetches what was added since', async () => {
    upstream.resetRequests();
    for (let n = 0; n < 3; n++) upstream.addScan({ id: `up_new_${n}`, created_at: at(200 + n), tool: 'vim' });
    const { summary } = await syncNow(laptop, 'up');
    expect(counts(summary)).toMatchObject({ outcome: 'done', new: 3 });
    expect(upstream.requestCount(DOWNLOAD)).toBe(3);
  });

  it('reads the whole list again when it changed below the watermark, and counts what went', async () => {
    upstream.removeScan('up_scan_005');
    upstream.removeScan('up_scan_006');
    upstream.addScan({ id: 'up_late', created_at: at(50.5), tool: 'late' });
    upstream.resetRequests();
    const { summary } = await syncNow(laptop, 'up');
    expect(counts(summary)).toMatchObject({ outcome: 'done', new: 1, gone: 2 });
    expect(upstream.requestCount(DOWNLOAD)).toBe(1);
    expect((await laptopScans()).map((s) => s.tool)).toContain('late');
    // the pulled copies of the removed scans stay
    expect(await laptopScans()).toHaveLength(124);
  });

  it('names a scan whose download broke, keeps the rest, and fetches it the next time', async () => {
    upstream.addScan({ id: 'up_broken', created_at: at(300), tool: 'broken' });
    upstream.addScan({ id: 'up_fine', created_at: at(301), tool: 'fine' });
    upstream.failNext(DOWNLOAD, { kind: 'body', body: 'PK\u0003\u0004 this is no zip' });
    const first = await syncNow(laptop, 'up');
    expect(first.summary.outcome).toBe('partial');
    expect(first.summary.errors).toEqual([{ what: 'up_broken', why: expect.any(String) }]);
    expect(first.summary.pulled.new).toBe(1);

    const second = await syncNow(laptop, 'up');
    expect(counts(second.summary)).toMatchObject({ outcome: 'done', new: 1 });
    expect((await laptopScans()).map((s) => s.tool)).toEqual(expect.arrayContaining(['broken', 'fine']));
  });

  it('ends partial, not unreachable, when the remote goes away in the middle', async () => {
    upstream.addScan({ id: 'up_cut', created_at: at(400), tool: 'cut' });
    upstream.failNext(DOWNLOAD, { kind: 'cut', afterBytes: 10 });
    const { summary } = await syncNow(laptop, 'up');
    expect(summary.outcome).toBe('partial');
    expect(summary.errors).toEqual([{ what: 'pull', why: expect.stringContaining('cut') }]);
    const again = await syncNow(laptop, 'up');
    expect(counts(again.summary)).toMatchObject({ outcome: 'done', new: 1 });
  });
});
