import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../../src/shared/api/common';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TEAM_ID = /^team_[0-9A-HJKMNP-TV-Z]{26}$/;
const UNKNOWN_TEAM = 'team_01JZZZZZZZZZZZZZZZZZZZZZZZ';
const UNKNOWN_USER = 'usr_01JZZZZZZZZZZZZZZZZZZZZZZZ';

interface TeamBody {
  id: string;
  name: string;
  organization_id: string;
  member_count: number;
  created_at: string;
}
interface MembershipBody {
  team_id: string;
  user_id: string;
  added_at: string;
}
interface TeamMemberBody {
  user_id: string;
  name: string;
  added_at: string;
}

function expectTeam(
  response: LightMyRequestResponse,
  status: number,
  expected: { name: string; organization_id: string; member_count: number },
): TeamBody {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json() as TeamBody;
  expect(Object.keys(body).sort()).toEqual(['created_at', 'id', 'member_count', 'name', 'organization_id']);
  expect(body).toEqual({
    id: expect.stringMatching(TEAM_ID),
    ...expected,
    created_at: expect.stringMatching(ISO_MS_Z),
  });
  return body;
}

describe('teams routes', () => {
  let ctx: TestContext;
  let orgId: string;
  let alice: TestUser;
  let bob: TestUser;

  async function createTeam(name: string, organizationId = orgId): Promise<TeamBody> {
    const response = await ctx.request({
      method: 'POST',
      url: `/v1/organizations/${organizationId}/teams`,
      payload: { name },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as TeamBody;
  }

  function addMember(teamId: string, userId: string, as: TestUser = ctx.owner): Promise<LightMyRequestResponse> {
    return ctx.request({ method: 'POST', url: `/v1/teams/${teamId}/members`, payload: { user_id: userId }, as });
  }

  async function putMember(user: TestUser, role: Role): Promise<void> {
    const response = await ctx.request({
      method: 'PUT',
      url: `/v1/organizations/${orgId}/members/${user.id}`,
      payload: { role },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  async function teamMembers(teamId: string): Promise<TeamMemberBody[]> {
    const response = await ctx.request({ method: 'GET', url: `/v1/teams/${teamId}/members` });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { members: TeamMemberBody[] }).members;
  }

  beforeEach(async () => {
    ctx = await createTestContext();
    alice = await ctx.createUser('Alice');
    bob = await ctx.createUser('Bob');
    const org = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Acme' } });
    expect(org.statusCode).toBe(201);
    orgId = (org.json() as { id: string }).id;
  });
  afterEach(() => ctx.close());

  describe('POST /v1/organizations/:org_id/teams', () => {
    it('creates a team: 201, the get shape, Location /v1/teams/:id', async () => {
      const response = await ctx.request({
        method: 'POST',
        url: `/v1/organizations/${orgId}/teams`,
        payload: { name: '  Red  ' },
      });
      const team = expectTeam(response, 201, { name: 'Red', organization_id: orgId, member_count: 0 });
      expect(response.headers.location).toBe(`/v1/teams/${team.id}`);
      const get = await ctx.request({ method: 'GET', url: response.headers.location as string });
      expect(get.statusCode).toBe(200);
      expect(get.json()).toEqual(team);
    });

    it('refuses a duplicate name case-insensitively with 409 conflict', async () => {
      await createTeam('Red');
      for (const name of [' red ', 'RED', 'Red']) {
        expectError(
          await ctx.request({ method: 'POST', url: `/v1/organizations/${orgId}/teams`, payload: { name } }),
          409,
          'conflict',
        );
      }
      const list = await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}/teams` });
      expect((list.json() as { teams: TeamBody[] }).teams).toHaveLength(1);
    });

    it('allows the same name in another organization', async () => {
      await createTeam('Red');
      const other = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Other' } });
      const otherId = (other.json() as { id: string }).id;
      const team = await createTeam('red', otherId);
      expect(team.organization_id).toBe(otherId);
    });

    it('refuses invalid names and unknown fields with 400', async () => {
      for (const payload of [
        { name: '' },
        { name: '  ' },
        { name: 'y'.repeat(101) },
        { name: 'a\u0000b' },
        { name: 'Red', color: 'red' },
      ]) {
        expectError(
          await ctx.request({ method: 'POST', url: `/v1/organizations/${orgId}/teams`, payload }),
          400,
          'validation_failed',
        );
      }
    });

    it('is 404 for an unknown organization', async () => {
      expectError(
        await ctx.request({
          method: 'POST',
          url: '/v1/organizations/org_01JZZZZZZZZZZZZZZZZZZZZZZZ/teams',
          payload: { name: 'Red' },
        }),
        404,
        'not_found',
      );
    });
  });

  describe('GET /v1/organizations/:org_id/teams', () => {
    it('is empty for a new organization', async () => {
      const response = await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}/teams` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ teams: [] });
    });

    it('lists {id, name, member_count} sorted by name, only of that organization', async () => {
      const charlie = await createTeam('Charlie');
      const alpha = await createTeam('Alpha');
      const bravo = await createTeam('Bravo');
      const other = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Other' } });
      await createTeam('Aaa', (other.json() as { id: string }).id);
      expect((await addMember(bravo.id, alice.id)).statusCode).toBe(201);
      expect((await addMember(bravo.id, bob.id)).statusCode).toBe(201);
      expect((await addMember(charlie.id, alice.id)).statusCode).toBe(201);

      const response = await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}/teams` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        teams: [
          { id: alpha.id, name: 'Alpha', member_count: 0 },
          { id: bravo.id, name: 'Bravo', member_count: 2 },
          { id: charlie.id, name: 'Charlie', member_count: 1 },
        ],
      });
    });

    it('is 404 for an unknown organization', async () => {
      expectError(
        await ctx.request({ method: 'GET', url: '/v1/organizations/org_01JZZZZZZZZZZZZZZZZZZZZZZZ/teams' }),
        404,
        'not_found',
      );
    });
  });

  describe('GET /v1/teams/:id', () => {
    it('returns {id, name, organization_id, member_count, created_at}', async () => {
      const team = await createTeam('Red');
      await addMember(team.id, alice.id);
      const response = await ctx.request({ method: 'GET', url: `/v1/teams/${team.id}` });
      const body = expectTeam(response, 200, { name: 'Red', organization_id: orgId, member_count: 1 });
      expect(body.id).toBe(team.id);
      expect(body.created_at).toBe(team.created_at);
    });

    it('is 404 for an unknown team', async () => {
      expectError(await ctx.request({ method: 'GET', url: `/v1/teams/${UNKNOWN_TEAM}` }), 404, 'not_found');
    });
  });

  describe('POST /v1/teams/:id/members', () => {
    it('adds an organization member: 201 {team_id, user_id, added_at}; again: 200 with the same body', async () => {
      await putMember(alice, 'member');
      const team = await createTeam('Red');
      const first = await addMember(team.id, alice.id);
      expect(first.statusCode, first.body).toBe(201);
      const body = first.json() as MembershipBody;
      expect(Object.keys(body).sort()).toEqual(['added_at', 'team_id', 'user_id']);
      expect(body).toEqual({ team_id: team.id, user_id: alice.id, added_at: expect.stringMatching(ISO_MS_Z) });

      const again = await addMember(team.id, alice.id);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(body);
      expect((await ctx.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json()).toMatchObject({
        member_count: 1,
      });
    });

    it('is 404 for an unknown user and adds nobody', async () => {
      const team = await createTeam('Red');
      expectError(await addMember(team.id, UNKNOWN_USER), 404, 'not_found');
      expect(await teamMembers(team.id)).toEqual([]);
    });

    it('is 404 for an unknown team', async () => {
      expectError(await addMember(UNKNOWN_TEAM, alice.id), 404, 'not_found');
    });

    it('makes a user from outside the organization join it as member', async () => {
      const team = await createTeam('Red');
      expectError(await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}`, as: bob }), 404, 'not_found');
      expect((await addMember(team.id, bob.id)).statusCode).toBe(201);

      const members = await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}/members` });
      const bobMember = (members.json() as { members: { user_id: string; role: Role }[] }).members.find(
        (m) => m.user_id === bob.id,
      );
      expect(bobMember).toEqual({
        user_id: bob.id,
        name: 'Bob',
        role: 'member',
        joined_at: expect.stringMatching(ISO_MS_Z),
      });
      expect((await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}` })).json()).toMatchObject({
        member_count: 2,
      });
      const bobOrgs = await ctx.request({ method: 'GET', url: '/v1/organizations', as: bob });
      expect(bobOrgs.json()).toEqual({ organizations: [{ id: orgId, name: 'Acme', role: 'member' }] });
      expect((await ctx.request({ method: 'GET', url: `/v1/teams/${team.id}`, as: bob })).statusCode).toBe(200);
    });

    it("keeps an existing member's organization role", async () => {
      await putMember(alice, 'admin');
      const team = await createTeam('Red');
      expect((await addMember(team.id, alice.id)).statusCode).toBe(201);
      const members = await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}/members` });
      expect((members.json() as { members: { user_id: string; role: Role }[] }).members).toContainEqual(
        expect.objectContaining({ user_id: alice.id, role: 'admin' }),
      );
    });

    it('refuses a body without user_id or with extra fields (400)', async () => {
      const team = await createTeam('Red');
      for (const payload of [{}, { user_id: alice.id, role: 'admin' }, { user_id: 42 }]) {
        expectError(
          await ctx.request({ method: 'POST', url: `/v1/teams/${team.id}/members`, payload }),
          400,
          'validation_failed',
        );
      }
    });
  });

  describe('DELETE /v1/teams/:id/members/:user_id', () => {
    it('removes a team member (204) and keeps them in the organization', async () => {
      const team = await createTeam('Red');
      await addMember(team.id, alice.id);
      await addMember(team.id, bob.id);
      const response = await ctx.request({ method: 'DELETE', url: `/v1/teams/${team.id}/members/${alice.id}` });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await teamMembers(team.id)).map((m) => m.user_id)).toEqual([bob.id]);
      expect((await ctx.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json()).toMatchObject({
        member_count: 1,
      });
      expect((await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}` })).json()).toMatchObject({
        member_count: 3,
      });
    });

    it('is 404 when the user is not a member of the team (or does not exist)', async () => {
      const team = await createTeam('Red');
      await putMember(alice, 'member');
      expectError(
        await ctx.request({ method: 'DELETE', url: `/v1/teams/${team.id}/members/${alice.id}` }),
        404,
        'not_found',
      );
      expectError(
        await ctx.request({ method: 'DELETE', url: `/v1/teams/${team.id}/members/${UNKNOWN_USER}` }),
        404,
        'not_found',
      );
      await addMember(team.id, alice.id);
      expect(
        (await ctx.request({ method: 'DELETE', url: `/v1/teams/${team.id}/members/${alice.id}` })).statusCode,
      ).toBe(204);
      expectError(
        await ctx.request({ method: 'DELETE', url: `/v1/teams/${team.id}/members/${alice.id}` }),
        404,
        'not_found',
      );
    });

    it('is 404 for an unknown team', async () => {
      expectError(
        await ctx.request({ method: 'DELETE', url: `/v1/teams/${UNKNOWN_TEAM}/members/${alice.id}` }),
        404,
        'not_found',
      );
    });
  });

  describe('GET /v1/teams/:id/members', () => {
    it('lists {user_id, name, added_at} of the team only', async () => {
      const red = await createTeam('Red');
      const blue = await createTeam('Blue');
      const addedAlice = (await addMember(red.id, alice.id)).json() as MembershipBody;
      const addedBob = (await addMember(red.id, bob.id)).json() as MembershipBody;
      await addMember(blue.id, ctx.owner.id);

      const response = await ctx.request({ method: 'GET', url: `/v1/teams/${red.id}/members` });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { members: TeamMemberBody[] };
      expect(Object.keys(body)).toEqual(['members']);
      expect([...body.members].sort((a, b) => (a.user_id < b.user_id ? -1 : 1))).toEqual(
        [
          { user_id: alice.id, name: 'Alice', added_at: addedAlice.added_at },
          { user_id: bob.id, name: 'Bob', added_at: addedBob.added_at },
        ].sort((a, b) => (a.user_id < b.user_id ? -1 : 1)),
      );
      expect(await teamMembers(blue.id)).toEqual([
        { user_id: ctx.owner.id, name: 'local', added_at: expect.stringMatching(ISO_MS_Z) },
      ]);
    });

    it('is empty for a new team and 404 for an unknown team', async () => {
      const team = await createTeam('Red');
      expect(await teamMembers(team.id)).toEqual([]);
      expectError(await ctx.request({ method: 'GET', url: `/v1/teams/${UNKNOWN_TEAM}/members` }), 404, 'not_found');
    });
  });

  describe('member_count', () => {
    it('follows adds, repeats, removals and organization member removal', async () => {
      const team = await createTeam('Red');
      const count = async (): Promise<number> =>
        ((await ctx.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json() as TeamBody).member_count;
      const listed = async (): Promise<number | undefined> =>
        (
          (await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}/teams` })).json() as {
            teams: TeamBody[];
          }
        ).teams.find((t) => t.id === team.id)?.member_count;

      expect([await count(), await listed()]).toEqual([0, 0]);
      await addMember(team.id, alice.id);
      await addMember(team.id, alice.id);
      expect([await count(), await listed()]).toEqual([1, 1]);
      await addMember(team.id, bob.id);
      await addMember(team.id, ctx.owner.id);
      expect([await count(), await listed()]).toEqual([3, 3]);
      await ctx.request({ method: 'DELETE', url: `/v1/teams/${team.id}/members/${ctx.owner.id}` });
      expect([await count(), await listed()]).toEqual([2, 2]);
      expect(
        (await ctx.request({ method: 'DELETE', url: `/v1/organizations/${orgId}/members/${bob.id}` })).statusCode,
      ).toBe(204);
      expect([await count(), await listed()]).toEqual([1, 1]);
    });
  });
});
