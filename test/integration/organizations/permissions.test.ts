import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src/shared/api/common';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

/**
 * The permission table of docs/contract/auth.md#roles for organizations and teams: every operation, for every role
 * and for a non-member. A non-member learns nothing (404, the same answer as for an id that does
 * not exist); a member whose role is too low gets 403. A refusal changes nothing.
 */

type Caller = Role | 'non-member';
type Expected = 200 | 201 | 204 | 403 | 404;

interface Ids {
  orgId: string;
  teamId: string;
}

interface Scenario extends Ids {
  caller: TestUser;
}

interface Operation {
  name: string;
  /** The request, built from the ids so that it can be replayed against ids that do not exist. */
  send(ctx: TestContext, ids: Ids, as: TestUser): Promise<LightMyRequestResponse>;
  expected: Record<Role, Expected>;
}

const UNKNOWN: Ids = { orgId: 'org_01JZZZZZZZZZZZZZZZZZZZZZZZ', teamId: 'team_01JZZZZZZZZZZZZZZZZZZZZZZZ' };

describe('permissions (docs/contract/auth.md#roles)', () => {
  let ctx: TestContext;
  /** Per-scenario users; the organization of each scenario is new, so their roles are set there. */
  let founder: TestUser;
  let caller: TestUser;
  let target: TestUser;
  let otherAdmin: TestUser;
  let coOwner: TestUser;
  let outsider: TestUser;

  const operations: Operation[] = [
    {
      name: 'GET /v1/organizations/:id (read organization)',
      send: (c, ids, as) => c.request({ method: 'GET', url: `/v1/organizations/${ids.orgId}`, as }),
      expected: { owner: 200, admin: 200, member: 200 },
    },
    {
      name: 'GET /v1/organizations/:id/members (read members)',
      send: (c, ids, as) => c.request({ method: 'GET', url: `/v1/organizations/${ids.orgId}/members`, as }),
      expected: { owner: 200, admin: 200, member: 200 },
    },
    {
      name: 'GET /v1/organizations/:id/teams (read teams)',
      send: (c, ids, as) => c.request({ method: 'GET', url: `/v1/organizations/${ids.orgId}/teams`, as }),
      expected: { owner: 200, admin: 200, member: 200 },
    },
    {
      name: 'GET /v1/teams/:id (read a team)',
      send: (c, ids, as) => c.request({ method: 'GET', url: `/v1/teams/${ids.teamId}`, as }),
      expected: { owner: 200, admin: 200, member: 200 },
    },
    {
      name: 'GET /v1/teams/:id/members (read team members)',
      send: (c, ids, as) => c.request({ method: 'GET', url: `/v1/teams/${ids.teamId}/members`, as }),
      expected: { owner: 200, admin: 200, member: 200 },
    },
    {
      name: 'PATCH /v1/organizations/:id (rename organization)',
      send: (c, ids, as) =>
        c.request({ method: 'PATCH', url: `/v1/organizations/${ids.orgId}`, payload: { name: 'Renamed' }, as }),
      expected: { owner: 200, admin: 200, member: 403 },
    },
    {
      name: 'POST /v1/organizations/:id/teams (create team)',
      send: (c, ids, as) =>
        c.request({ method: 'POST', url: `/v1/organizations/${ids.orgId}/teams`, payload: { name: 'Blue' }, as }),
      expected: { owner: 201, admin: 201, member: 403 },
    },
    {
      name: 'POST /v1/teams/:id/members (add an organization member to a team)',
      send: (c, ids, as) =>
        c.request({ method: 'POST', url: `/v1/teams/${ids.teamId}/members`, payload: { user_id: otherAdmin.id }, as }),
      expected: { owner: 201, admin: 201, member: 403 },
    },
    {
      name: 'POST /v1/teams/:id/members (add an outsider to a team)',
      send: (c, ids, as) =>
        c.request({ method: 'POST', url: `/v1/teams/${ids.teamId}/members`, payload: { user_id: outsider.id }, as }),
      expected: { owner: 201, admin: 201, member: 403 },
    },
    {
      name: 'DELETE /v1/teams/:id/members/:user_id (remove team member)',
      send: (c, ids, as) => c.request({ method: 'DELETE', url: `/v1/teams/${ids.teamId}/members/${target.id}`, as }),
      expected: { owner: 204, admin: 204, member: 403 },
    },
    {
      name: 'PUT /v1/organizations/:id/members/:user_id (change a role)',
      send: (c, ids, as) =>
        c.request({
          method: 'PUT',
          url: `/v1/organizations/${ids.orgId}/members/${target.id}`,
          payload: { role: 'admin' },
          as,
        }),
      expected: { owner: 200, admin: 403, member: 403 },
    },
    {
      name: 'PUT /v1/organizations/:id/members/:user_id (add an outsider)',
      send: (c, ids, as) =>
        c.request({
          method: 'PUT',
          url: `/v1/organizations/${ids.orgId}/members/${outsider.id}`,
          payload: { role: 'member' },
          as,
        }),
      expected: { owner: 200, admin: 403, member: 403 },
    },
    {
      name: 'DELETE /v1/organizations/:id/members/:user_id (remove a member)',
      send: (c, ids, as) =>
        c.request({ method: 'DELETE', url: `/v1/organizations/${ids.orgId}/members/${target.id}`, as }),
      expected: { owner: 204, admin: 204, member: 403 },
    },
    {
      name: 'DELETE /v1/organizations/:id/members/:user_id (remove an admin)',
      send: (c, ids, as) =>
        c.request({ method: 'DELETE', url: `/v1/organizations/${ids.orgId}/members/${otherAdmin.id}`, as }),
      expected: { owner: 204, admin: 204, member: 403 },
    },
    {
      // Implementation choice (organizations.service.ts removeMember): removing an owner is a
      // change of roles, so an admin may not.
      name: 'DELETE /v1/organizations/:id/members/:user_id (remove an owner)',
      send: (c, ids, as) =>
        c.request({ method: 'DELETE', url: `/v1/organizations/${ids.orgId}/members/${coOwner.id}`, as }),
      expected: { owner: 204, admin: 403, member: 403 },
    },
    {
      name: 'DELETE /v1/organizations/:id (delete organization)',
      send: (c, ids, as) => c.request({ method: 'DELETE', url: `/v1/organizations/${ids.orgId}`, as }),
      expected: { owner: 204, admin: 403, member: 403 },
    },
  ];

  beforeAll(async () => {
    ctx = await createTestContext();
    founder = await ctx.createUser('Founder');
    caller = await ctx.createUser('Caller');
    target = await ctx.createUser('Target');
    otherAdmin = await ctx.createUser('Other Admin');
    coOwner = await ctx.createUser('Co-owner');
    outsider = await ctx.createUser('Outsider');
  });
  afterAll(() => ctx.close());

  /**
   * A new organization made by `founder`, with a co-owner, an admin, a plain member (`target`,
   * also in the team "Red") and the caller in the given role (or not in it at all).
   */
  async function scenario(role: Caller): Promise<Scenario> {
    const org = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Acme' }, as: founder });
    expect(org.statusCode).toBe(201);
    const orgId = (org.json() as { id: string }).id;
    const memberships: [TestUser, Role][] = [
      [coOwner, 'owner'],
      [otherAdmin, 'admin'],
      [target, 'member'],
    ];
    if (role !== 'non-member') memberships.push([caller, role]);
    for (const [user, userRole] of memberships) {
      const put = await ctx.request({
        method: 'PUT',
        url: `/v1/organizations/${orgId}/members/${user.id}`,
        payload: { role: userRole },
        as: founder,
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    const team = await ctx.request({
      method: 'POST',
      url: `/v1/organizations/${orgId}/teams`,
      payload: { name: 'Red' },
      as: founder,
    });
    expect(team.statusCode).toBe(201);
    const teamId = (team.json() as { id: string }).id;
    const added = await ctx.request({
      method: 'POST',
      url: `/v1/teams/${teamId}/members`,
      payload: { user_id: target.id },
      as: founder,
    });
    expect(added.statusCode).toBe(201);
    return { orgId, teamId, caller };
  }

  const roles: Role[] = ['owner', 'admin', 'member'];
  const cases = operations.flatMap((operation) => [
    ...roles.map((role) => ({ operation, role: role as Caller, expected: operation.expected[role] })),
    { operation, role: 'non-member' as Caller, expected: 404 as Expected },
  ]);

  it('covers every operation for every caller', () => {
    expect(cases).toHaveLength(operations.length * 4);
  });

  it.each(cases.map((c) => [c.operation.name, c.role, c.expected, c] as const))(
    '%s as %s → %i',
    async (_name, role, expected, c) => {
      const s = await scenario(role);
      const before = await snapshotDatabase(ctx.db);
      const response = await c.operation.send(ctx, s, s.caller);

      if (expected === 403) {
        expectError(response, 403, 'forbidden');
      } else if (expected === 404) {
        const error = expectError(response, 404, 'not_found');
        // Existence is not leaked: the answer is the one for ids that do not exist at all.
        const unknown = await c.operation.send(ctx, UNKNOWN, s.caller);
        const unknownError = expectError(unknown, 404, 'not_found');
        expect(error.message).toBe(unknownError.message);
      } else {
        expect(response.statusCode, response.body).toBe(expected);
        return;
      }
      expect(await snapshotDatabase(ctx.db)).toEqual(before);
    },
  );
});
