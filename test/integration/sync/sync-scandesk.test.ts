/**
 * A sync between two Scandesk stores: a team server (listening on loopback) and a laptop whose
 * remote is the team, with a team member's token. Pull (organizations with their policy, the
 * member's visible scans, a re-evaluation coming down as `changed`), push (local submits reach the
 * team once, judged by the team's policy, and come back as echoes, not copies), deletions not
 * propagated but counted, and the run's edges: owner only, one run per remote, an unreachable
 * remote, a lease held elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scan, ScanList } from '../../../src/shared/api/scans';
import { takeLease } from '../../../src/main/sync/sync-state.repository';
import { createOrg, putPolicy, setRole, submitScan } from '../../helpers/scan-fixtures';
import { addRemote, counts, startServed, syncNow, type ServedContext } from '../../helpers/sync-world';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const POLICY = {
  max_tokens_per_scan: null,
  max_tokens_per_request: null,
  allowed_tools: null,
  blocked_tools: ['curl'],
  blocked_actions: [],
};

describe('sync with a Scandesk remote', () => {
  let team: ServedContext;
  let laptop: TestContext;
  let alice: TestUser;
  let teamOrg: string;

  const teamScans = async (as: TestUser) =>
    ((await team.request({ method: 'GET', url: '/v1/scans?limit=500', as })).json() as ScanList).scans;
  const laptopScans = async (query = '') =>
    ((await laptop.request({ method: 'GET', url: `/v1/scans?limit=500${query}` })).json() as ScanList).scans;

  beforeAll(async () => {
    team = await startServed();
    alice = await team.createUser('alice');
    teamOrg = await createOrg(team, 'Platform');
    await setRole(team, teamOrg, alice, 'admin');
    await putPolicy(team, teamOrg, POLICY);
    await submitScan(team, { tool: 'curl', action: 'fetch', tokens: 10, organization_id: teamOrg });
    await submitScan(team, { tool: 'claude-code', action: 'edit', tokens: 20, organization_id: teamOrg });
    await submitScan(team, { tool: 'cursor', action: 'chat', tokens: 30 }, alice);
    // the owner's own scan outside the organization: alice cannot see it
    await submitScan(team, { tool: 'secret', action: 'edit', tokens: 40 });

    laptop = await createTestContext();
    await addRemote(laptop, { name: 'team', url: team.url, token: alice.token });
  });
  afterAll(async () => {
    await laptop?.close();
    await team?.close();
  });

  it('pulls the organizations, their policy, and every scan the remote user can see', async () => {
    const { summary, events } = await syncNow(laptop, 'team');
    expect(counts(summary)).toEqual({
      outcome: 'done',
      new: 3,
      changed: 0,
      unchanged: 0,
      sent: 0,
      waiting: 0,
      gone: 0,
    });
    expect(summary.pulled.bytes).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'progress').map((e) => e.type === 'progress' && e.phase)).toEqual(
      expect.arrayContaining(['organizations', 'pull', 'push']),
    );

    const orgs = (await laptop.request({ method: 'GET', url: '/v1/organizations' })).json() as {
      organizations: { id: string; name: string; role: string }[];
    };
    expect(orgs.organizations).toEqual([expect.objectContaining({ name: 'Platform', role: 'admin' })]);
    const localOrg = orgs.organizations[0]!.id;
    const policy = (await laptop.request({ method: 'GET', url: `/v1/organizations/${localOrg}/policy` })).json();
    expect(policy).toEqual(POLICY);

    const scans = await laptopScans();
    expect(scans.map((s) => s.tool).sort()).toEqual(['claude-code', 'curl', 'cursor']);
    const curl = scans.find((s) => s.tool === 'curl')!;
    const full = (await laptop.request({ method: 'GET', url: `/v1/scans/${curl.id}` })).json() as Scan & {
      origin?: { remote: string; id: string };
    };
    expect(full.organization_id).toBe(localOrg);
    expect(full.violations.map((v) => v.rule)).toEqual(['tool.blocked']);
    expect(full.origin?.remote).toBe('team');
    // a deep link by the remote id resolves here
    const byOrigin = await laptopScans(`&origin_id=${full.origin!.id}`);
    expect(byOrigin.map((s) => s.id)).toEqual([curl.id]);

    const remote = (await laptop.request({ method: 'GET', url: '/v1/remotes' })).json() as {
      remotes: { name: string; kind: string; last_sync: unknown }[];
    };
    expect(remote.remotes[0]).toMatchObject({ name: 'team', kind: 'scandesk', last_sync: summary });
  });

  it('finds nothing new the second time', async () => {
    const { summary } = await syncNow(laptop, 'team');
    expect(counts(summary)).toEqual({
      outcome: 'done',
      new: 0,
      changed: 0,
      unchanged: 0,
      sent: 0,
      waiting: 0,
      gone: 0,
    });
  });

  it('takes a re-evaluation on the remote as changed', async () => {
    await putPolicy(team, teamOrg, { ...POLICY, blocked_tools: ['curl', 'claude-code'] });
    const reevaluate = await team.request({
      method: 'POST',
      url: `/v1/organizations/${teamOrg}/policy/reevaluate`,
      payload: {
        since: new Date(Date.now() - 86_400_000).toISOString(),
        until: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(reevaluate.statusCode, reevaluate.body).toBe(200);
    expect(reevaluate.body).toContain('"result"');
    const { summary } = await syncNow(laptop, 'team');
    expect(summary.outcome).toBe('done');
    expect(summary.pulled.changed).toBe(1);
    const claude = (await laptopScans()).find((s) => s.tool === 'claude-code')!;
    expect(claude.violation_count).toBe(1);
  });

  it('pushes local submits once, with the remote verdict, and they come back as echoes, not copies', async () => {
    const localOrg = (await laptopScans()).find((s) => s.tool === 'curl')!.organization_id!;
    const inOrg = await submitScan(laptop, { tool: 'curl', action: 'offline', tokens: 5, organization_id: localOrg });
    const alone = await submitScan(laptop, { tool: 'vim', action: 'offline', tokens: 6 });
    // the local copy of the policy judged it offline already
    expect(inOrg.violations.map((v) => v.rule)).toEqual(['tool.blocked']);
    const before = (await teamScans(alice)).length;
    const pending = async () =>
      ((await laptop.request({ method: 'GET', url: '/v1/remotes/team' })).json() as { pending_push: number })
        .pending_push;
    expect(await pending()).toBe(2);

    const first = await syncNow(laptop, 'team');
    expect(counts(first.summary)).toMatchObject({ outcome: 'done', sent: 2, waiting: 0 });
    expect(await pending()).toBe(0);
    const after = await teamScans(alice);
    expect(after).toHaveLength(before + 2);
    expect(
      after
        .filter((s) => s.action === 'offline')
        .map((s) => s.tool)
        .sort(),
    ).toEqual(['curl', 'vim']);

    const pushed = (await laptop.request({ method: 'GET', url: `/v1/scans/${inOrg.id}` })).json() as Scan & {
      pushed?: { remote: string; id: string; violation_count: number }[];
    };
    expect(pushed.pushed).toEqual([expect.objectContaining({ remote: 'team', violation_count: 1 })]);

    const again = await syncNow(laptop, 'team');
    expect(counts(again.summary)).toEqual({
      outcome: 'done',
      new: 0,
      changed: 0,
      unchanged: 0,
      sent: 0,
      waiting: 0,
      gone: 0,
    });
    expect((await teamScans(alice)).length).toBe(before + 2);
    const local = await laptopScans();
    expect(
      local
        .filter((s) => s.action === 'offline')
        .map((s) => s.id)
        .sort(),
    ).toEqual([inOrg.id, alone.id].sort());
  });

  it('resends a push whose answer was lost without a second copy on the remote', async () => {
    const scan = await submitScan(laptop, { tool: 'vim', action: 'lost-answer', tokens: 7 });
    // The first attempt reached the team, but its answer never came back: the laptop has only its mark.
    const remote = await laptop.db
      .selectFrom('remotes')
      .select('id')
      .where('name', '=', 'team')
      .executeTakeFirstOrThrow();
    await laptop.db
      .insertInto('sync_pushes')
      .values({
        remote_id: remote.id,
        scan_id: scan.id,
        remote_scan_id: null,
        pushed_at: null,
        remote_violation_count: null,
        remote_worst_severity: null,
      })
      .execute();
    const sent = await team.request({
      method: 'POST',
      url: '/v1/scans',
      as: alice,
      headers: { 'idempotency-key': `push:${scan.id}` },
      payload: {
        tool: 'vim',
        action: 'lost-answer',
        tokens: 7,
        timeline: [
          { timestamp: new Date(Date.parse(scan.created_at)).toISOString(), action: 'lost-answer', tokens: 7 },
        ],
        token_breakdown: {},
        created_at: scan.created_at,
      },
    });
    expect(sent.statusCode, sent.body).toBe(201);

    const { summary } = await syncNow(laptop, 'team');
    expect(summary.outcome).toBe('done');
    expect(summary.pushed).toEqual({ sent: 1, waiting: 0 });
    expect((await teamScans(alice)).filter((s) => s.action === 'lost-answer')).toHaveLength(1);
    expect((await laptopScans()).filter((s) => s.action === 'lost-answer')).toHaveLength(1);
  });

  it('keeps scans the remote no longer shows, and counts them', async () => {
    // alice leaves the organization: its two scans are no longer hers to see
    const removed = await team.request({ method: 'DELETE', url: `/v1/organizations/${teamOrg}/members/${alice.id}` });
    expect(removed.statusCode, removed.body).toBe(204);
    const { summary } = await syncNow(laptop, 'team');
    expect(summary.outcome).toBe('done');
    expect(summary.gone).toBe(2);
    expect((await laptopScans()).filter((s) => s.tool === 'curl' && s.action === 'fetch')).toHaveLength(1);
  });

  it('is the workspace owner’s, and unknown remotes are 404', async () => {
    const bob = await laptop.createUser('bob');
    const refused = await laptop.request({ method: 'POST', url: '/v1/remotes/team/sync', as: bob });
    expect(refused.statusCode).toBe(403);
    const unknown = await laptop.request({ method: 'POST', url: '/v1/remotes/nobody/sync' });
    expect(unknown.statusCode).toBe(404);
  });

  it('joins a run that goes on instead of starting another', async () => {
    const [a, b] = await Promise.all([syncNow(laptop, 'team'), syncNow(laptop, 'team')]);
    expect(a.summary).toEqual(b.summary);
  });

  it('answers 409 while another process holds the lease', async () => {
    const remote = await laptop.db
      .selectFrom('remotes')
      .select('id')
      .where('name', '=', 'team')
      .executeTakeFirstOrThrow();
    expect(await takeLease(laptop.db, remote.id, 'another-process', Date.now(), Date.now() + 60_000)).toBe(true);
    const busy = await laptop.request({ method: 'POST', url: '/v1/remotes/team/sync' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ error: { code: 'conflict' } });
    await laptop.db
      .updateTable('remotes')
      .set({ lease_owner: null, lease_until: null })
      .where('id', '=', remote.id)
      .execute();
  });

  it('says a remote that cannot be reached is unreachable, and saves that', async () => {
    const closed = await startServed();
    const url = closed.url;
    const token = closed.owner.token;
    await closed.close();
    await addRemote(laptop, { name: 'gone', url, token });
    const { summary } = await syncNow(laptop, 'gone');
    expect(summary.outcome).toBe('unreachable');
    expect(summary.errors).toEqual([{ what: 'remote', why: expect.stringContaining('cannot reach') }]);
    const remote = await laptop.db
      .selectFrom('remotes')
      .select('last_sync')
      .where('name', '=', 'gone')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(remote.last_sync!)).toEqual(summary);
  });
});
