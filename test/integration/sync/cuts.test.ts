/**
 * The connection between a laptop and its team server cut at random points of syncs (issue item
 * 7): each round adds scans on both sides, then syncs through a proxy that drops one request of
 * the sync at a random byte offset, of what the laptop sent or of what the team answered. After
 * every round nothing is doubled on either side and the laptop's cursor is not past a team scan it
 * lacks; after the rounds, one clean sync converges: every scan on both sides exactly once, every
 * push acknowledged once, the team's verdicts (it re-evaluates now and then) known on the laptop. Seeded: the seed is in every failure's message (SCANDESK_CUT_SEED=… to
 * run the same cuts again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../fixtures/seeded-random';
import { startCuttingProxy, type CuttingProxy } from '../../helpers/cutting-proxy';
import { createOrg, putPolicy, setRole, submitScan } from '../../helpers/scan-fixtures';
import { expectConsistent, expectConverged, type TeamGet } from '../../helpers/sync-recount';
import { addRemote, startServed, syncNow, type ServedContext } from '../../helpers/sync-world';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

/** SCANDESK_CUT_ROUNDS=… explores longer. */
const ROUNDS = Number(process.env.SCANDESK_CUT_ROUNDS ?? 12);
const FEED_PAGE = 3;
const SEED = Number(process.env.SCANDESK_CUT_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe(`syncs cut at random points (seed ${SEED})`, () => {
  let team: ServedContext;
  let laptop: TestContext;
  let proxy: CuttingProxy;
  let alice: TestUser;
  let teamOrg: string;
  let remoteId: string;
  const random = seededRandom(SEED);

  const teamGet: TeamGet = async (path) => {
    const response = await team.request({ method: 'GET', url: path, as: alice });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as unknown;
  };

  async function reevaluate(blocked: string[]): Promise<void> {
    await putPolicy(team, teamOrg, {
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: blocked,
      blocked_actions: [],
    });
    const day = 86_400_000;
    const response = await team.request({
      method: 'POST',
      url: `/v1/organizations/${teamOrg}/policy/reevaluate`,
      payload: { since: new Date(Date.now() - day).toISOString(), until: new Date(Date.now() + day).toISOString() },
    });
    expect(response.body).toContain('"result"');
  }

  beforeAll(async () => {
    team = await startServed();
    alice = await team.createUser('alice');
    teamOrg = await createOrg(team, 'Platform');
    await setRole(team, teamOrg, alice, 'admin');
    await submitScan(team, { tool: 'vim', action: 'team-0-org', tokens: 1, organization_id: teamOrg });
    proxy = await startCuttingProxy(team.url);
    // Feed pages of a few scans (a server may answer fewer than asked): a sync stores several
    // pages, each with the cursor after it, so that a cut can fall between two.
    proxy.rewrite = (path) =>
      path.replace(
        /^(\/v1\/sync\/changes\?(?:.*&)?limit=)(\d+)/,
        (_, start: string, limit: string) => `${start}${Math.min(Number(limit), FEED_PAGE)}`,
      );
    // Short timeouts: a cut that left a request hanging would show as a slow test, not a pass.
    laptop = await createTestContext({ sync: { timeouts: { headersMs: 5_000, bodyMs: 5_000 } } });
    await addRemote(laptop, { name: 'team', url: proxy.url, token: alice.token, background: false });
    remoteId = (await laptop.db.selectFrom('remotes').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await laptop?.close();
    await proxy?.close();
    await team?.close();
  });

  it(
    'loses nothing and doubles nothing, and the next clean sync finishes the job',
    async () => {
      const first = await syncNow(laptop, 'team');
      expect(first.summary.outcome, `seed ${SEED}`).toBe('done');
      const localOrg = (await laptop.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow()).id;
      // A sync's requests besides its pushes: probe, organizations, feed pages, exports.
      const base = proxy.requests.length;
      let longest = base;

      for (let round = 1; round <= ROUNDS; round++) {
        // New scans on both sides: the team's (one by its owner in the organization, one of alice's
        // own), and two submitted on the laptop (in the mirrored organization, in none).
        await submitScan(team, { tool: 'vim', action: `team-${round}-org`, tokens: round, organization_id: teamOrg });
        await submitScan(team, { tool: 'vim', action: `team-${round}-alice`, tokens: round }, alice);
        await submitScan(laptop, {
          tool: 'cursor',
          action: `laptop-${round}-org`,
          tokens: round,
          organization_id: localOrg,
        });
        await submitScan(laptop, { tool: 'cursor', action: `laptop-${round}-none`, tokens: round });
        // Now and then the team re-evaluates its organization's scans: they come down as changed.
        if (random() < 1 / 3) await reevaluate(round % 2 === 0 ? [] : ['vim', 'cursor']);

        // A request of this sync (its pushes, and resends of answers lost before, among them), a
        // side, a byte.
        const before = proxy.requests.length;
        const waiting = await laptop.request({ method: 'GET', url: '/v1/remotes/team' });
        const requests = Math.max(longest, base + (waiting.json() as { pending_push: number }).pending_push);
        const plan = {
          at: before + 1 + Math.floor(random() * requests),
          side: random() < 0.5 ? ('request' as const) : ('answer' as const),
          fraction: random(),
        };
        proxy.cut(plan);
        const cut = await syncNow(laptop, 'team');
        proxy.cut(null);
        longest = Math.max(longest, proxy.requests.length - before);
        const made = proxy.cuts.at(-1);
        const why = `seed ${SEED}, round ${round}: ${
          made?.request.n === plan.at
            ? `${made.side} of ${made.request.method} ${made.request.path} cut at byte ${made.offset} of ${made.of}`
            : 'no cut (the sync made fewer requests)'
        }; the sync said ${cut.summary.outcome} ${JSON.stringify(cut.summary.errors)}`;
        await expectConsistent(teamGet, laptop.db, remoteId, why);
      }

      const last = await syncNow(laptop, 'team');
      expect(last.summary.outcome, `seed ${SEED}: ${JSON.stringify(last.summary.errors)}`).toBe('done');
      expect(last.summary.pushed.waiting).toBe(0);
      await expectConverged(teamGet, laptop.db, remoteId, `seed ${SEED}, after the clean sync`);
      // Most rounds cut something (a round whose sync made fewer requests than the last cuts nothing).
      expect(proxy.cuts.length, `seed ${SEED}`).toBeGreaterThan(ROUNDS / 3);
    },
    30_000 + ROUNDS * 2_000,
  );
});
