/**
 * Organizations and teams mirrored from a remote are read-only here
 * (docs/contract/api.md#mirrored-organizations-and-teams): every change is 409 naming the remote,
 * after the role checks, and changes nothing; reads, a policy preview and submitting a scan into
 * one are allowed; once the remote is removed, what it mirrored is local data again.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Policy } from '../../../src/shared/api/policies';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { createOrg, putPolicy, setRole, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { insertRemote } from '../../helpers/sync-fixtures';

const POLICY: Policy = {
  max_tokens_per_scan: 100,
  max_tokens_per_request: null,
  allowed_tools: null,
  blocked_tools: [],
  blocked_actions: [],
};

describe('mirrored organizations and teams', () => {
  let ctx: TestContext;
  let member: TestUser;
  let outsider: TestUser;
  let newcomer: TestUser;
  let orgId: string;
  let teamId: string;
  let localOrgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    member = await ctx.createUser('member');
    outsider = await ctx.createUser('outsider');
    newcomer = await ctx.createUser('newcomer');
    orgId = await createOrg(ctx, 'Team org');
    localOrgId = await createOrg(ctx, 'Local org');
    await setRole(ctx, orgId, member, 'member');
    await putPolicy(ctx, orgId, POLICY);
    const team = await ctx.request({
      method: 'POST',
      url: `/v1/organizations/${orgId}/teams`,
      payload: { name: 'Core' },
    });
    teamId = (team.json() as { id: string }).id;
    expect(
      (await ctx.request({ method: 'POST', url: `/v1/teams/${teamId}/members`, payload: { user_id: member.id } }))
        .statusCode,
    ).toBe(201);
    // What a sync leaves: the remote, and the organization and its team marked as its mirrors.
    await insertRemote(ctx.db, {
      id: 'rem_team',
      name: 'team',
      url: 'https://scandesk.example.org',
      user_id: ctx.owner.id,
      push_since: 0,
      created_at: Date.now(),
    });
    await ctx.db
      .updateTable('organizations')
      .set({ remote_id: 'rem_team', remote_org_id: 'org_remote' })
      .where('id', '=', orgId)
      .execute();
    await ctx.db
      .updateTable('teams')
      .set({ remote_id: 'rem_team', remote_team_id: 'team_remote' })
      .where('id', '=', teamId)
      .execute();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const range = { since: '2000-01-01', until: '2000-06-01' };
  /** Every change the API offers on an organization or team, as its owner would send it. */
  const changes = (): [string, InjectOptions][] => [
    ['rename', { method: 'PATCH', url: `/v1/organizations/${orgId}`, payload: { name: 'Renamed' } }],
    ['delete', { method: 'DELETE', url: `/v1/organizations/${orgId}` }],
    [
      'add member',
      { method: 'PUT', url: `/v1/organizations/${orgId}/members/${newcomer.id}`, payload: { role: 'member' } },
    ],
    [
      'change role',
      { method: 'PUT', url: `/v1/organizations/${orgId}/members/${member.id}`, payload: { role: 'admin' } },
    ],
    ['remove member', { method: 'DELETE', url: `/v1/organizations/${orgId}/members/${member.id}` }],
    ['create team', { method: 'POST', url: `/v1/organizations/${orgId}/teams`, payload: { name: 'Another' } }],
    ['add team member', { method: 'POST', url: `/v1/teams/${teamId}/members`, payload: { user_id: newcomer.id } }],
    ['remove team member', { method: 'DELETE', url: `/v1/teams/${teamId}/members/${member.id}` }],
    [
      'replace policy',
      { method: 'PUT', url: `/v1/organizations/${orgId}/policy`, payload: { ...POLICY, max_tokens_per_scan: 5 } },
    ],
    ['re-evaluate', { method: 'POST', url: `/v1/organizations/${orgId}/policy/reevaluate`, payload: range }],
  ];

  it('refuses every change with 409 naming the remote, and changes nothing', async () => {
    const before = await snapshotDatabase(ctx.db);
    for (const [what, request] of changes()) {
      const error = expectError(await ctx.request(request), 409, 'conflict');
      expect(error.message, what).toBe('managed by remote team: change it there');
    }
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });

  it('checks roles first: a non-member learns nothing, a member whose role is too low is refused as ever', async () => {
    for (const [what, request] of changes()) {
      expect((await ctx.request({ ...request, as: outsider })).statusCode, what).toBe(404);
      expect((await ctx.request({ ...request, as: member })).statusCode, what).toBe(403);
    }
  });

  it('answers every read, and a policy preview', async () => {
    for (const url of [
      `/v1/organizations/${orgId}`,
      `/v1/organizations/${orgId}/members`,
      `/v1/organizations/${orgId}/teams`,
      `/v1/organizations/${orgId}/policy`,
      `/v1/teams/${teamId}`,
      `/v1/teams/${teamId}/members`,
    ]) {
      expect((await ctx.request({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    const preview = await ctx.request({
      method: 'POST',
      url: `/v1/organizations/${orgId}/policy/preview`,
      payload: { policy: POLICY, ...range },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.body).toContain('"result"');
  });

  it('takes a submitted scan into it, evaluated by the mirrored policy, from any member', async () => {
    const scan = await submitScan(ctx, { tool: 'cursor', action: 'edit', tokens: 500, organization_id: orgId }, member);
    expect(scan.organization_id).toBe(orgId);
    expect(scan.violations.map((violation) => violation.rule)).toEqual(['tokens.scan_limit']);
  });

  it('leaves organizations made here changeable', async () => {
    const renamed = await ctx.request({
      method: 'PATCH',
      url: `/v1/organizations/${localOrgId}`,
      payload: { name: 'Still local' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it('refuses changes to a mirrored team of an organization made here, and only to it', async () => {
    await insertRemote(ctx.db, {
      id: 'rem_hq',
      name: 'hq',
      url: 'https://hq.example.org',
      user_id: ctx.owner.id,
      push_since: 0,
      created_at: 0,
    });
    const created = await ctx.request({
      method: 'POST',
      url: `/v1/organizations/${localOrgId}/teams`,
      payload: { name: 'Mirrored' },
    });
    const mirroredTeam = (created.json() as { id: string }).id;
    await ctx.db
      .updateTable('teams')
      .set({ remote_id: 'rem_hq', remote_team_id: 't1' })
      .where('id', '=', mirroredTeam)
      .execute();
    const refused = await ctx.request({
      method: 'POST',
      url: `/v1/teams/${mirroredTeam}/members`,
      payload: { user_id: member.id },
    });
    expect(expectError(refused, 409, 'conflict').message).toBe('managed by remote hq: change it there');
    const local = await ctx.request({
      method: 'POST',
      url: `/v1/organizations/${localOrgId}/teams`,
      payload: { name: 'Local team' },
    });
    expect(local.statusCode, local.body).toBe(201);
  });

  it('makes what a removed remote mirrored local data again', async () => {
    await ctx.db.deleteFrom('remotes').where('id', '=', 'rem_team').execute();
    const renamed = await ctx.request({
      method: 'PATCH',
      url: `/v1/organizations/${orgId}`,
      payload: { name: 'Ours now' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const added = await ctx.request({
      method: 'POST',
      url: `/v1/teams/${teamId}/members`,
      payload: { user_id: newcomer.id },
    });
    expect(added.statusCode, added.body).toBe(201);
  });
});
