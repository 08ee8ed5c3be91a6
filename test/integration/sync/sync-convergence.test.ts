/**
 * The convergence check at the end of a sync with a Scandesk remote (docs/sync.md#convergence-check):
 * the team's digest per organization and day (GET /v1/sync/digest) against what the laptop holds
 * of each mirror, its own pushed submits counted as the team counts them; "in step" after a
 * complete sync, the differing day named when the laptop lost a copy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncDigest } from '../../../src/shared/api/sync';
import { ownSubmits } from '../../../src/main/sync/digest/digest.repository';
import { createOrg, putPolicy, setRole, submitScan } from '../../helpers/scan-fixtures';
import { addRemote, startServed, syncNow, type ServedContext } from '../../helpers/sync-world';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const DAY_MS = 86_400_000;

describe('the convergence check', () => {
  let team: ServedContext;
  let laptop: TestContext;
  let alice: TestUser;
  let bob: TestUser;
  let teamOrg: string;
  let otherOrg: string;
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - DAY_MS).toISOString();

  const digest = async (as: TestUser, query = ''): Promise<SyncDigest> => {
    const response = await team.request({ method: 'GET', url: `/v1/sync/digest${query}`, as });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SyncDigest;
  };

  beforeAll(async () => {
    team = await startServed();
    alice = await team.createUser('alice');
    bob = await team.createUser('bob');
    teamOrg = await createOrg(team, 'Platform');
    otherOrg = await createOrg(team, 'Other');
    await setRole(team, teamOrg, alice, 'admin');
    await setRole(team, teamOrg, bob, 'member');
    await setRole(team, otherOrg, alice, 'member');
    await setRole(team, otherOrg, bob, 'member');
    await putPolicy(team, teamOrg, {
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: ['curl'],
      blocked_actions: [],
    });
    await submitScan(team, { tool: 'curl', action: 'fetch', tokens: 10, organization_id: teamOrg }, bob);
    await submitScan(team, { tool: 'claude-code', action: 'edit', tokens: 20, organization_id: teamOrg });
    await submitScan(
      team,
      { tool: 'claude-code', action: 'edit', tokens: 5, organization_id: teamOrg, created_at: yesterday },
      alice,
    );
    // In an organization alice is a plain member of: hers counts, bob's is not hers to see.
    await submitScan(team, { tool: 'cursor', action: 'chat', tokens: 30, organization_id: otherOrg }, alice);
    await submitScan(team, { tool: 'cursor', action: 'chat', tokens: 70, organization_id: otherOrg }, bob);
    laptop = await createTestContext();
    await addRemote(laptop, { name: 'team', url: team.url, token: alice.token });
  });
  afterAll(async () => {
    await laptop?.close();
    await team?.close();
  });

  it('answers what the caller sees per organization, and the days of the one asked for', async () => {
    const all = await digest(alice);
    expect(all.organizations.map(({ organization_id, scans }) => ({ organization_id, scans }))).toEqual(
      [
        { organization_id: teamOrg, scans: 3 },
        { organization_id: otherOrg, scans: 1 },
      ].sort((a, b) => (a.organization_id < b.organization_id ? -1 : 1)),
    );
    expect(all.organizations.every((org) => org.days === undefined)).toBe(true);
    const one = await digest(alice, `?organization_id=${teamOrg}`);
    expect(one.organizations).toHaveLength(1);
    expect(one.organizations[0]!.digest).toBe(all.organizations.find((o) => o.organization_id === teamOrg)!.digest);
    expect(one.organizations[0]!.days).toEqual([
      { day: yesterday.slice(0, 10), scans: 1, tokens: 5, violations: 0 },
      { day: today, scans: 2, tokens: 30, violations: 1 },
    ]);
    // bob, a member: his own scans only.
    expect((await digest(bob, `?organization_id=${teamOrg}`)).organizations[0]!.days).toEqual([
      { day: today, scans: 1, tokens: 10, violations: 1 },
    ]);
    const refused = await team.request({ method: 'GET', url: '/v1/sync/digest?organization_id=../x', as: alice });
    expect(refused.statusCode).toBe(400);
  });

  it('finds the laptop in step after a sync, its own pushed submits included', async () => {
    expect((await syncNow(laptop, 'team')).summary.convergence).toEqual({
      state: 'in_step',
      days: [],
      differing_days: 0,
    });
    const mirror = await laptop.db
      .selectFrom('organizations')
      .select('id')
      .where('remote_org_id', '=', teamOrg)
      .executeTakeFirstOrThrow();
    // An offline submit, judged here by the mirrored policy: pushed, then counted once on each side.
    await submitScan(laptop, { tool: 'curl', action: 'fetch', tokens: 3, organization_id: mirror.id });
    // Before the sync it is not on the team: the check would take it out of this side's sums.
    const remote = await laptop.db.selectFrom('remotes').selectAll().executeTakeFirstOrThrow();
    expect(await ownSubmits(laptop.db, remote, [mirror.id], true)).toEqual([
      expect.objectContaining({ organization_id: mirror.id, pushed: false, tokens: 3, violations: 1 }),
    ]);
    const { summary } = await syncNow(laptop, 'team');
    expect(summary.pushed.sent).toBe(1);
    expect(summary.convergence?.state).toBe('in_step');
    expect(await ownSubmits(laptop.db, remote, [mirror.id], true)).toEqual([
      expect.objectContaining({ pushed: true, tokens: 3, violations: 1, remote_violations: 1 }),
    ]);
  });

  it('names the day that differs when the laptop lost a copy, and stays "done"', async () => {
    const lost = await laptop.db
      .selectFrom('scans')
      .select('id')
      .where('source', '=', 'pulled')
      .where('tokens', '=', 5)
      .executeTakeFirstOrThrow();
    await laptop.db.deleteFrom('violations').where('scan_id', '=', lost.id).execute();
    await laptop.db.deleteFrom('scans').where('id', '=', lost.id).execute();
    const { summary } = await syncNow(laptop, 'team');
    expect(summary.outcome).toBe('done');
    expect(summary.convergence).toMatchObject({
      state: 'differs',
      differing_days: 1,
      days: [
        {
          organization_id: teamOrg,
          day: yesterday.slice(0, 10),
          here: { scans: 0, tokens: 0, violations: 0 },
          there: { scans: 1, tokens: 5, violations: 0 },
        },
      ],
    });
    expect(summary.convergence?.why).toMatch(/^1 day differs/);
  });
});
