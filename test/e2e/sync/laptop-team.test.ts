/**
 * Two laptops (SQLite, each its own `scandesk serve`) and a team server (the run's backend:
 * PostgreSQL in the PostgreSQL run) with two users administering one organization. Each laptop
 * syncs with `scandesk sync` and sees the other's scans; a scan submitted while the team server is
 * down waits (exit 2), then reaches the team when it is back, once; SIGKILL of a laptop in the
 * middle of its pull or of its push leaves nothing half done, and the next sync finishes the job.
 * Then a pull from the fake upstream, and a partial run's exit code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanList } from '../../../src/shared/api/scans';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-upstream/fake-upstream';
import { expectExit, stopServers } from '../../helpers/cli-output';
import { runCli, startServe, type ServeProcess } from '../../helpers/serve-process';
import { bearerApi as api } from '../../fixtures/bearer-api';

/**
 * SQLite whatever the run's backend: a laptop keeps its store in its data directory. Its remotes
 * have background sync off, so that only the syncs the test runs happen.
 */
const LAPTOP = { env: { SCANDESK_DATABASE_URL: undefined } };

const scansOf = async (server: { url: string }, token: string): Promise<ScanList['scans']> =>
  (await api<ScanList>(server, token, 'GET', '/v1/scans?limit=500')).scans;

const sync = (laptop: ServeProcess, ...args: string[]) =>
  runCli(['sync', ...args, '--url', laptop.url, '--token', laptop.token], { timeoutMs: 60_000 });

describe('laptops and a team server', () => {
  let team: ServeProcess;
  let laptopA: ServeProcess;
  let laptopB: ServeProcess;
  let alice: string;
  let bob: string;
  let orgId: string;
  let upstream: FakeUpstream | undefined;

  beforeAll(async () => {
    team = await startServe();
    const made = async (name: string) =>
      (await api<{ user: { id: string }; token: string }>(team, team.token, 'POST', '/v1/users', { name })) as {
        user: { id: string };
        token: string;
      };
    const a = await made('alice');
    const b = await made('bob');
    alice = a.token;
    bob = b.token;
    orgId = (await api<{ id: string }>(team, team.token, 'POST', '/v1/organizations', { name: 'Platform' })).id;
    for (const user of [a, b]) {
      await api(team, team.token, 'PUT', `/v1/organizations/${orgId}/members/${user.user.id}`, { role: 'admin' });
    }
    await api(team, team.token, 'POST', '/v1/scans', {
      tool: 'claude-code',
      action: 'edit',
      tokens: 10,
      organization_id: orgId,
    });

    laptopA = await startServe(LAPTOP);
    laptopB = await startServe(LAPTOP);
    await api(laptopA, laptopA.token, 'POST', '/v1/remotes', {
      name: 'team',
      url: team.url,
      token: alice,
      background: false,
    });
    await api(laptopB, laptopB.token, 'POST', '/v1/remotes', {
      name: 'team',
      url: team.url,
      token: bob,
      background: false,
    });
  }, 120_000);
  afterAll(async () => {
    await upstream?.close();
    await stopServers(laptopA, laptopB, team);
  });

  it('pulls the team’s scans to each laptop', async () => {
    for (const laptop of [laptopA, laptopB]) {
      const result = await sync(laptop, 'team');
      expectExit(result, 0);
      expect(result.stdout).toMatch(
        /^team: done\. pulled 1 new, 0 changed, 0 unchanged \(.* MB\); pushed 0, 0 waiting; in step\n$/,
      );
      expect((await scansOf(laptop, laptop.token)).map((s) => s.tool)).toEqual(['claude-code']);
    }
    const [onTeam] = await scansOf(team, team.token);
    const list = (...args: string[]) =>
      runCli(['scans', 'list', ...args, '--json', '--url', laptopA.url, '--token', laptopA.token]);
    const tools = async (...args: string[]) => {
      const result = await list(...args);
      expectExit(result, 0);
      return (JSON.parse(result.stdout) as ScanList).scans.map((s) => s.tool);
    };
    expect(await tools('--source', 'pulled')).toEqual(['claude-code']);
    expect(await tools('--source', 'submitted')).toEqual([]);
    expect(await tools('--origin-id', onTeam!.id)).toEqual(['claude-code']);
    expect(await tools('--origin', 'team', '--since', '2000-01-01')).toEqual(['claude-code']);
  });

  it('sends a scan submitted while the team is down once it is back, and the other laptop gets it', async () => {
    const localOrg = (await scansOf(laptopA, laptopA.token))[0]!.organization_id!;
    await team.stop();
    const offline = await runCli([
      'submit',
      '--tool',
      'cursor',
      '--action',
      'offline',
      '--tokens',
      '5',
      '--org',
      localOrg,
      '--url',
      laptopA.url,
      '--token',
      laptopA.token,
    ]);
    expectExit(offline, 0);
    const down = await sync(laptopA);
    expectExit(down, 2);
    expect(down.stdout).toMatch(/^team: could not reach it\n {2}remote: /);

    team = await startServe({ dataDir: team.dataDir, port: team.port });
    const up = await sync(laptopA);
    expectExit(up, 0);
    expect(up.stdout).toContain('pushed 1, 0 waiting');
    const onTeam = await scansOf(team, team.token);
    expect(onTeam.filter((s) => s.action === 'offline')).toHaveLength(1);

    expectExit(await sync(laptopB, 'team'), 0);
    const onB = await scansOf(laptopB, laptopB.token);
    expect(onB.filter((s) => s.action === 'offline').map((s) => s.tool)).toEqual(['cursor']);
    // and the offline scan came back to A as its own push, not as a copy
    expectExit(await sync(laptopA, 'team'), 0);
    expect((await scansOf(laptopA, laptopA.token)).filter((s) => s.action === 'offline')).toHaveLength(1);
  });

  /**
   * Starts a sync of laptop A, kills it (SIGKILL) once the sync reports `phase` and `until` says
   * so, and starts it again.
   */
  async function killLaptopADuring(phase: 'pull' | 'push', until = async () => true): Promise<void> {
    const response = await fetch(`${laptopA.url}/v1/remotes/team/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${laptopA.token}` },
    });
    const decoder = new TextDecoder();
    let seen = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      seen += decoder.decode(chunk, { stream: true });
      if (seen.includes(`"phase":"${phase}"`)) break;
    }
    while (!(await until()));
    await laptopA.stop('SIGKILL');
    laptopA = await startServe({ ...LAPTOP, dataDir: laptopA.dataDir });
  }

  it('finishes the job after a laptop is killed in the middle of its pull', async () => {
    for (let n = 0; n < 30; n++) {
      await api(team, bob, 'POST', '/v1/scans', {
        tool: 'vim',
        action: `burst-${n}`,
        tokens: n,
        organization_id: orgId,
      });
    }
    await killLaptopADuring('pull');
    const again = await sync(laptopA, 'team');
    expectExit(again, 0);
    const onA = await scansOf(laptopA, laptopA.token);
    const onTeam = await scansOf(team, team.token);
    // every team scan once on the laptop (the laptop's own push is there as itself), nothing twice
    expect(onA).toHaveLength(onTeam.length);
    expect(new Set(onA.map((s) => s.action)).size).toBe(onA.length);
    expect(onTeam.filter((s) => s.action === 'offline')).toHaveLength(1);
  });

  it('sends each scan once after a laptop is killed in the middle of its push', async () => {
    const localOrg = (await scansOf(laptopA, laptopA.token)).find((s) => s.organization_id)!.organization_id!;
    const actions = Array.from({ length: 30 }, (_, n) => `killed-push-${n}`);
    const pushed = (scans: ScanList['scans']) =>
      scans
        .map((s) => s.action)
        .filter((action) => action.startsWith('killed-push-'))
        .sort();
    for (const [n, action] of actions.entries()) {
      await api(laptopA, laptopA.token, 'POST', '/v1/scans', {
        tool: 'cursor',
        action,
        tokens: n,
        ...(n % 2 === 0 ? { organization_id: localOrg } : {}),
      });
    }
    // Killed once the team has a few of them: most likely with one on its way, its answer lost.
    await killLaptopADuring('push', async () => pushed(await scansOf(team, alice)).length >= 3);
    const waiting = await api<{ pending_push: number }>(laptopA, laptopA.token, 'GET', '/v1/remotes/team');
    expect(waiting.pending_push).toBeGreaterThan(0);
    const again = await sync(laptopA, 'team');
    expectExit(again, 0);
    expect(again.stdout).toContain(', 0 waiting');
    expect(pushed(await scansOf(team, alice))).toEqual([...actions].sort());
    expect(pushed(await scansOf(laptopA, laptopA.token))).toEqual([...actions].sort());
  });

  it('pulls from a plain upstream, and says partial (exit 1) when a scan fails', async () => {
    upstream = await startFakeUpstream({
      organizations: [{ id: 'o1', name: 'Upstream org' }],
      scans: [{ id: 'u1', tool: 'gpt', tokens: 3 }],
    });
    await api(laptopB, laptopB.token, 'POST', '/v1/remotes', {
      name: 'up',
      url: upstream.url,
      token: upstream.token,
      background: false,
    });
    const first = await sync(laptopB, 'up');
    expectExit(first, 0);
    expect(first.stdout).toContain('up: done. pulled 1 new');

    upstream.addScan({ id: 'u2', tool: 'broken' });
    upstream.failNext('GET /v1/scans/:scan_id/evidence/download', { kind: 'bad-json' });
    const second = await sync(laptopB);
    expectExit(second, 1);
    expect(second.stdout).toMatch(/^up: partial\. .*\n {2}u2: /m);
    expect(second.stdout).toMatch(/^team: done\./m);
  });
});
