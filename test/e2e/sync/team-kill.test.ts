/**
 * SIGKILL of the team server (a `scandesk serve` on the run's backend) in the middle of a laptop's
 * sync (issue item 7): while the laptop fetches the scans of its pull, and while it pushes. The
 * kill lands where a proxy between them sees the request: once the team has it whole, or once the
 * team has answered (the work done, the answer lost), chosen by a seed that every failure names
 * (SCANDESK_CUT_SEED=… to run the same again). The team restarts on the same store, the laptop
 * syncs again, and both sides are recounted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopServers } from '../../helpers/cli-output';
import { seededRandom } from '../../fixtures/seeded-random';
import { startCuttingProxy, type CuttingProxy, type ProxiedRequest } from '../../helpers/cutting-proxy';
import { startServe, type ServeProcess } from '../../helpers/serve-process';
import { submitScan } from '../../helpers/scan-fixtures';
import { expectConverged, type TeamGet } from '../../helpers/sync-recount';
import { addRemote, syncNow } from '../../helpers/sync-world';
import { createTestContext, type TestContext } from '../../helpers/test-app';
import { bearerApi as api } from '../../fixtures/bearer-api';

const SEED = Number(process.env.SCANDESK_CUT_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** The laptop fetching a page's scans: a POST of the pull (not a push of a scan). */
const pullFetch = (request: ProxiedRequest): boolean =>
  request.method === 'POST' && !request.path.startsWith('/v1/scans');
const push = (request: ProxiedRequest): boolean => request.method === 'POST' && request.path.startsWith('/v1/scans');

describe(`the team server killed in the middle of a sync (seed ${SEED})`, () => {
  let team: ServeProcess;
  let laptop: TestContext;
  let proxy: CuttingProxy;
  let alice: string;
  let orgId: string;
  let localOrg: string;
  let remoteId: string;
  const random = seededRandom(SEED);

  const teamGet: TeamGet = (path) => api(team, alice, 'GET', path);
  const onTeam = (action: string, organization = true) =>
    api(team, alice, 'POST', '/v1/scans', {
      tool: 'vim',
      action,
      tokens: 3,
      ...(organization ? { organization_id: orgId } : {}),
    });

  /** Kills the team at the `nth` request that `which` matches, once it has it whole or has answered. */
  function killAt(which: (request: ProxiedRequest) => boolean, nth: number): { stage: string; killed: () => boolean } {
    const stage = random() < 0.5 ? ('forwarded' as const) : ('answered' as const);
    let seen = 0;
    let killed = false;
    proxy.hook = async (request, at) => {
      if (killed || at !== stage || !which(request) || ++seen < nth) return undefined;
      killed = true;
      await team.stop('SIGKILL');
      return 'cut';
    };
    return { stage, killed: () => killed };
  }

  async function restartTeam(): Promise<void> {
    proxy.hook = undefined;
    team = await startServe({ dataDir: team.dataDir });
    proxy.retarget(team.url);
  }

  beforeAll(async () => {
    team = await startServe();
    alice = (
      await api<{ token: string; user: { id: string } }>(team, team.token, 'POST', '/v1/users', { name: 'alice' })
    ).token;
    const aliceId = (await api<{ id: string }>(team, alice, 'GET', '/v1/me')).id;
    orgId = (await api<{ id: string }>(team, team.token, 'POST', '/v1/organizations', { name: 'Platform' })).id;
    await api(team, team.token, 'PUT', `/v1/organizations/${orgId}/members/${aliceId}`, { role: 'admin' });
    await onTeam('team-first');
    proxy = await startCuttingProxy(team.url);
    laptop = await createTestContext({ sync: { timeouts: { headersMs: 10_000, bodyMs: 10_000 } } });
    await addRemote(laptop, { name: 'team', url: proxy.url, token: alice, background: false });
    remoteId = (await laptop.db.selectFrom('remotes').select('id').executeTakeFirstOrThrow()).id;
    expect((await syncNow(laptop, 'team')).summary.outcome).toBe('done');
    localOrg = (await laptop.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow()).id;
  }, 60_000);
  afterAll(async () => {
    await laptop?.close();
    await proxy?.close();
    await stopServers(team);
  });

  it('finishes the pull after the team died while the laptop fetched its scans', async () => {
    for (let n = 0; n < 6; n++) await onTeam(`team-pull-${n}`, n % 2 === 0);
    await submitScan(laptop, { tool: 'cursor', action: 'laptop-pull', tokens: 2, organization_id: localOrg });
    const kill = killAt(pullFetch, 1);
    const cut = await syncNow(laptop, 'team');
    const why = `seed ${SEED}, killed once the team ${kill.stage} the pull's fetch; the sync said ${JSON.stringify(cut.summary)}`;
    expect(kill.killed(), why).toBe(true);
    expect(cut.summary.outcome, why).toBe('partial');
    expect(cut.summary.pulled.new, why).toBe(0);

    await restartTeam();
    const again = await syncNow(laptop, 'team');
    expect(again.summary.outcome, `${why}; then ${JSON.stringify(again.summary)}`).toBe('done');
    await expectConverged(teamGet, laptop.db, remoteId, why);
  }, 60_000);

  it('sends every push once after the team died while the laptop pushed', async () => {
    for (let n = 0; n < 6; n++) {
      await submitScan(laptop, {
        tool: 'cursor',
        action: `laptop-push-${n}`,
        tokens: n,
        ...(n % 2 === 0 ? { organization_id: localOrg } : {}),
      });
    }
    await onTeam('team-push');
    const kill = killAt(push, 3);
    const cut = await syncNow(laptop, 'team');
    const why = `seed ${SEED}, killed once the team ${kill.stage} the third push; the sync said ${JSON.stringify(cut.summary)}`;
    expect(kill.killed(), why).toBe(true);
    expect(cut.summary.outcome, why).toBe('partial');
    expect(cut.summary.pushed.waiting, why).toBeGreaterThan(0);

    await restartTeam();
    const again = await syncNow(laptop, 'team');
    expect(again.summary.outcome, `${why}; then ${JSON.stringify(again.summary)}`).toBe('done');
    expect(again.summary.pushed.waiting).toBe(0);
    await expectConverged(teamGet, laptop.db, remoteId, why);
  }, 60_000);
});
