import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../../src/shared/api/common';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ORG_ID = /^org_[0-9A-HJKMNP-TV-Z]{26}$/;

interface OrganizationBody {
  id: string;
  name: string;
  created_at: string;
  member_count: number;
  plan: string;
}
interface MemberBody {
  user_id: string;
  name: string;
  role: Role;
  joined_at: string;
}
interface TeamBody {
  id: string;
  name: string;
  organization_id: string;
  member_count: number;
  created_at: string;
}

/** Asserts the get shape of docs/contract/api.md#organizations exactly: these keys, these types, nothing else. */
function expectOrganization(
  response: LightMyRequestResponse,
  status: number,
  expected: { name: string; member_count: number },
): OrganizationBody {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json() as OrganizationBody;
  expect(Object.keys(body).sort()).toEqual(['created_at', 'id', 'member_count', 'name', 'plan']);
  expect(body).toEqual({
    id: expect.stringMatching(ORG_ID),
    name: expected.name,
    created_at: expect.stringMatching(ISO_MS_Z),
    member_count: expected.member_count,
    plan: 'free',
  });
  expect(Number.isSafeInteger(body.member_count)).toBe(true);
  expect(new Date(body.created_at).toISOString()).toBe(body.created_at);
  return body;
}

function expectMember(value: unknown, expected: { user_id: string; name: string; role: Role }): MemberBody {
  expect(value).toEqual({ ...expected, joined_at: expect.stringMatching(ISO_MS_Z) });
  return value as MemberBody;
}

describe('organizations routes', () => {
  let ctx: TestContext;
  let alice: TestUser;
  let bob: TestUser;

  async function createOrg(name: string, as: TestUser = ctx.owner): Promise<OrganizationBody> {
    const response = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name }, as });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as OrganizationBody;
  }

  async function putMember(
    orgId: string,
    user: TestUser,
    role: Role,
    as: TestUser = ctx.owner,
  ): Promise<LightMyRequestResponse> {
    return ctx.request({ method: 'PUT', url: `/v1/organizations/${orgId}/members/${user.id}`, payload: { role }, as });
  }

  async function members(orgId: string): Promise<MemberBody[]> {
    const response = await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}/members` });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { members: MemberBody[] }).members;
  }

  async function createTeam(orgId: string, name: string): Promise<TeamBody> {
    const response = await ctx.request({ method: 'POST', url: `/v1/organizations/${orgId}/teams`, payload: { name } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as TeamBody;
  }

  beforeEach(async () => {
    ctx = await createTestContext();
    alice = await ctx.createUser('Alice');
    bob = await ctx.createUser('Bob');
  });
  afterEach(() => ctx.close());

  describe('POST /v1/organizations', () => {
    it('creates an organization: 201, the get shape, Location, plan free, the creator as its one member', async () => {
      const response = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Acme' } });
      const org = expectOrganization(response, 201, { name: 'Acme', member_count: 1 });
      expect(response.headers.location).toBe(`/v1/organizations/${org.id}`);

      const get = await ctx.request({ method: 'GET', url: response.headers.location as string });
      expect(get.statusCode).toBe(200);
      expect(get.json()).toEqual(org);
    });

    it('makes the creator its owner', async () => {
      const org = await createOrg('Acme', alice);
      const response = await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}/members`, as: alice });
      expect(response.statusCode).toBe(200);
      const list = (response.json() as { members: MemberBody[] }).members;
      expect(list).toHaveLength(1);
      expectMember(list[0], { user_id: alice.id, name: 'Alice', role: 'owner' });
    });

    it('trims the name and allows duplicate names', async () => {
      const first = expectOrganization(
        await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: '  Acme   ' } }),
        201,
        { name: 'Acme', member_count: 1 },
      );
      const second = await createOrg('Acme');
      expect(second.name).toBe('Acme');
      expect(second.id).not.toBe(first.id);
      expect(second.id > first.id).toBe(true);
    });

    it('refuses invalid names and unknown fields with 400 validation_failed', async () => {
      for (const payload of [
        { name: '' },
        { name: '   ' },
        { name: 'x'.repeat(101) },
        { name: 'a\nb' },
        { name: 'Acme\t' },
        {},
        { name: 'Ok', plan: 'team' },
      ]) {
        expectError(await ctx.request({ method: 'POST', url: '/v1/organizations', payload }), 400, 'validation_failed');
      }
      const list = await ctx.request({ method: 'GET', url: '/v1/organizations' });
      expect(list.json()).toEqual({ organizations: [] });
    });

    it('accepts a name of exactly 100 characters', async () => {
      const name = 'n'.repeat(100);
      expect((await createOrg(name)).name).toBe(name);
    });

    it('needs a token', async () => {
      expectError(
        await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'X' }, as: null }),
        401,
        'unauthorized',
      );
    });
  });

  describe('GET /v1/organizations', () => {
    it('is empty for a user without organizations', async () => {
      const response = await ctx.request({ method: 'GET', url: '/v1/organizations', as: alice });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ organizations: [] });
    });

    it("lists only the caller's organizations with the caller's role, sorted by name then id", async () => {
      const zeta = await createOrg('Zeta');
      const beta1 = await createOrg('Beta');
      const alpha = await createOrg('Alpha', alice);
      const beta2 = await createOrg('Beta');
      const hidden = await createOrg('Aardvark', bob);
      expect((await putMember(alpha.id, ctx.owner, 'admin', alice)).statusCode).toBe(200);
      expect((await putMember(hidden.id, alice, 'member', bob)).statusCode).toBe(200);

      const response = await ctx.request({ method: 'GET', url: '/v1/organizations' });
      expect(response.statusCode).toBe(200);
      const [betaFirst, betaSecond] = [beta1, beta2].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(response.json()).toEqual({
        organizations: [
          { id: alpha.id, name: 'Alpha', role: 'admin' },
          { id: betaFirst!.id, name: 'Beta', role: 'owner' },
          { id: betaSecond!.id, name: 'Beta', role: 'owner' },
          { id: zeta.id, name: 'Zeta', role: 'owner' },
        ],
      });

      const forAlice = await ctx.request({ method: 'GET', url: '/v1/organizations', as: alice });
      expect(forAlice.json()).toEqual({
        organizations: [
          { id: hidden.id, name: 'Aardvark', role: 'member' },
          { id: alpha.id, name: 'Alpha', role: 'owner' },
        ],
      });
    });
    it('sorts names as people read them: case does not split the list', async () => {
      for (const name of ['bravo', 'Alpha', 'alpha2', 'Charlie']) await createOrg(name, bob);
      const response = await ctx.request({ method: 'GET', url: '/v1/organizations', as: bob });
      expect((response.json() as { organizations: { name: string }[] }).organizations.map((o) => o.name)).toEqual([
        'Alpha',
        'alpha2',
        'bravo',
        'Charlie',
      ]);
    });
  });

  describe('GET /v1/organizations/:id', () => {
    it('returns the get shape with member_count counting every member, owner included', async () => {
      const org = await createOrg('Acme');
      await putMember(org.id, alice, 'admin');
      await putMember(org.id, bob, 'member');
      const response = await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}` });
      const body = expectOrganization(response, 200, { name: 'Acme', member_count: 3 });
      expect(body.id).toBe(org.id);
      expect(body.created_at).toBe(org.created_at);
    });

    it('is 404 for an unknown id and for a non-member', async () => {
      const org = await createOrg('Acme');
      expectError(
        await ctx.request({ method: 'GET', url: '/v1/organizations/org_01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
        404,
        'not_found',
      );
      expectError(
        await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}`, as: alice }),
        404,
        'not_found',
      );
    });
  });

  describe('PATCH /v1/organizations/:id', () => {
    it('renames (trimmed) and answers with the get shape', async () => {
      const org = await createOrg('Acme');
      await putMember(org.id, alice, 'member');
      const response = await ctx.request({
        method: 'PATCH',
        url: `/v1/organizations/${org.id}`,
        payload: { name: ' Acme Corp ' },
      });
      const body = expectOrganization(response, 200, { name: 'Acme Corp', member_count: 2 });
      expect(body).toEqual({ ...org, name: 'Acme Corp', member_count: 2 });

      const get = await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}` });
      expect(get.json()).toEqual(body);
      const list = await ctx.request({ method: 'GET', url: '/v1/organizations' });
      expect(list.json()).toEqual({ organizations: [{ id: org.id, name: 'Acme Corp', role: 'owner' }] });
    });

    it('refuses an invalid name with 400 and leaves the name alone', async () => {
      const org = await createOrg('Acme');
      expectError(
        await ctx.request({ method: 'PATCH', url: `/v1/organizations/${org.id}`, payload: { name: ' ' } }),
        400,
        'validation_failed',
      );
      expectError(
        await ctx.request({
          method: 'PATCH',
          url: `/v1/organizations/${org.id}`,
          payload: { name: 'X', plan: 'team' },
        }),
        400,
        'validation_failed',
      );
      const get = await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}` });
      expect((get.json() as OrganizationBody).name).toBe('Acme');
    });

    it('is 404 for an unknown organization', async () => {
      expectError(
        await ctx.request({
          method: 'PATCH',
          url: '/v1/organizations/org_01JZZZZZZZZZZZZZZZZZZZZZZZ',
          payload: { name: 'X' },
        }),
        404,
        'not_found',
      );
    });
  });

  describe('DELETE /v1/organizations/:id', () => {
    it('answers 204 with no body, then the organization is gone', async () => {
      const org = await createOrg('Acme');
      const response = await ctx.request({ method: 'DELETE', url: `/v1/organizations/${org.id}` });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');

      expectError(await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}` }), 404, 'not_found');
      expectError(await ctx.request({ method: 'DELETE', url: `/v1/organizations/${org.id}` }), 404, 'not_found');
      expect((await ctx.request({ method: 'GET', url: '/v1/organizations' })).json()).toEqual({ organizations: [] });
    });

    it('removes its teams, memberships and policy, and leaves other organizations alone', async () => {
      const org = await createOrg('Acme');
      const keep = await createOrg('Keep');
      await putMember(org.id, alice, 'member');
      const team = await createTeam(org.id, 'Red');
      const keptTeam = await createTeam(keep.id, 'Red');
      expect(
        (await ctx.request({ method: 'POST', url: `/v1/teams/${team.id}/members`, payload: { user_id: alice.id } }))
          .statusCode,
      ).toBe(201);

      expect((await ctx.request({ method: 'DELETE', url: `/v1/organizations/${org.id}` })).statusCode).toBe(204);

      expectError(await ctx.request({ method: 'GET', url: `/v1/teams/${team.id}` }), 404, 'not_found');
      expect(await ctx.db.selectFrom('teams').select('id').execute()).toEqual([{ id: keptTeam.id }]);
      expect(await ctx.db.selectFrom('team_members').selectAll().execute()).toEqual([]);
      expect(await ctx.db.selectFrom('memberships').select('organization_id').execute()).toEqual([
        { organization_id: keep.id },
      ]);
      expect(await ctx.db.selectFrom('policies').select('organization_id').execute()).toEqual([
        { organization_id: keep.id },
      ]);
      expect((await ctx.request({ method: 'GET', url: '/v1/organizations', as: alice })).json()).toEqual({
        organizations: [],
      });
      expect((await ctx.request({ method: 'GET', url: `/v1/teams/${keptTeam.id}` })).statusCode).toBe(200);
    });

    it('is 404 for an unknown organization', async () => {
      expectError(
        await ctx.request({ method: 'DELETE', url: '/v1/organizations/org_01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
        404,
        'not_found',
      );
    });
  });

  describe('GET /v1/organizations/:id/members', () => {
    it('lists {user_id, name, role, joined_at} for every member', async () => {
      const org = await createOrg('Acme');
      await putMember(org.id, alice, 'admin');
      await putMember(org.id, bob, 'member');
      const response = await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}/members`, as: bob });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { members: MemberBody[] };
      expect(Object.keys(body)).toEqual(['members']);
      expect(body.members).toHaveLength(3);
      for (const member of body.members)
        expect(Object.keys(member).sort()).toEqual(['joined_at', 'name', 'role', 'user_id']);
      const byId = new Map(body.members.map((m) => [m.user_id, m]));
      expectMember(byId.get(ctx.owner.id), { user_id: ctx.owner.id, name: 'local', role: 'owner' });
      expectMember(byId.get(alice.id), { user_id: alice.id, name: 'Alice', role: 'admin' });
      expectMember(byId.get(bob.id), { user_id: bob.id, name: 'Bob', role: 'member' });
    });
  });

  describe('PUT /v1/organizations/:id/members/:user_id', () => {
    it('adds a non-member with a role: 200 the member, member_count grows', async () => {
      const org = await createOrg('Acme');
      const response = await putMember(org.id, alice, 'admin');
      expect(response.statusCode, response.body).toBe(200);
      const member = expectMember(response.json(), { user_id: alice.id, name: 'Alice', role: 'admin' });
      expect(member.joined_at >= org.created_at).toBe(true);
      expect(Object.keys(response.json() as object).sort()).toEqual(['joined_at', 'name', 'role', 'user_id']);

      const get = await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}` });
      expect((get.json() as OrganizationBody).member_count).toBe(2);
      expect(await members(org.id)).toContainEqual(member);
      const aliceOrgs = await ctx.request({ method: 'GET', url: '/v1/organizations', as: alice });
      expect(aliceOrgs.json()).toEqual({ organizations: [{ id: org.id, name: 'Acme', role: 'admin' }] });
    });

    it('changes the role of a member and keeps joined_at', async () => {
      const org = await createOrg('Acme');
      const added = expectMember((await putMember(org.id, alice, 'member')).json(), {
        user_id: alice.id,
        name: 'Alice',
        role: 'member',
      });
      const promoted = await putMember(org.id, alice, 'owner');
      expect(promoted.statusCode).toBe(200);
      expect(promoted.json()).toEqual({ ...added, role: 'owner' });
      const demoted = await putMember(org.id, alice, 'admin');
      expect(demoted.json()).toEqual({ ...added, role: 'admin' });
      const same = await putMember(org.id, alice, 'admin');
      expect(same.statusCode).toBe(200);
      expect(same.json()).toEqual({ ...added, role: 'admin' });
      expect((await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}` })).json()).toMatchObject({
        member_count: 2,
      });
    });

    it('is 404 for an unknown user and adds nobody', async () => {
      const org = await createOrg('Acme');
      const response = await ctx.request({
        method: 'PUT',
        url: `/v1/organizations/${org.id}/members/usr_01JZZZZZZZZZZZZZZZZZZZZZZZ`,
        payload: { role: 'member' },
      });
      expectError(response, 404, 'not_found');
      expect(await members(org.id)).toHaveLength(1);
    });

    it('refuses an unknown role or extra fields with 400', async () => {
      const org = await createOrg('Acme');
      for (const payload of [{ role: 'superuser' }, {}, { role: 'member', team: 'x' }]) {
        expectError(
          await ctx.request({ method: 'PUT', url: `/v1/organizations/${org.id}/members/${alice.id}`, payload }),
          400,
          'validation_failed',
        );
      }
      expect(await members(org.id)).toHaveLength(1);
    });

    it('refuses to demote the last owner (409 conflict), but allows it once there is another owner', async () => {
      const org = await createOrg('Acme');
      for (const role of ['admin', 'member'] as const) {
        expectError(await putMember(org.id, ctx.owner, role), 409, 'conflict');
      }
      expect(await members(org.id)).toEqual([expect.objectContaining({ user_id: ctx.owner.id, role: 'owner' })]);

      expect((await putMember(org.id, alice, 'owner')).statusCode).toBe(200);
      const demoted = await putMember(org.id, ctx.owner, 'member');
      expect(demoted.statusCode, demoted.body).toBe(200);
      expect((demoted.json() as MemberBody).role).toBe('member');
      // Alice is now the last owner.
      expectError(await putMember(org.id, alice, 'admin', alice), 409, 'conflict');
    });
  });

  describe('DELETE /v1/organizations/:id/members/:user_id', () => {
    it('removes a member (204) and from every team of that organization, not of others', async () => {
      const org = await createOrg('Acme');
      const other = await createOrg('Other');
      const red = await createTeam(org.id, 'Red');
      const blue = await createTeam(org.id, 'Blue');
      const elsewhere = await createTeam(other.id, 'Green');
      for (const team of [red, blue, elsewhere]) {
        const added = await ctx.request({
          method: 'POST',
          url: `/v1/teams/${team.id}/members`,
          payload: { user_id: alice.id },
        });
        expect(added.statusCode).toBe(201);
      }
      await ctx.request({ method: 'POST', url: `/v1/teams/${red.id}/members`, payload: { user_id: bob.id } });

      const response = await ctx.request({ method: 'DELETE', url: `/v1/organizations/${org.id}/members/${alice.id}` });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');

      expect((await members(org.id)).map((m) => m.user_id).sort()).toEqual([bob.id, ctx.owner.id].sort());
      const redMembers = await ctx.request({ method: 'GET', url: `/v1/teams/${red.id}/members` });
      expect((redMembers.json() as { members: { user_id: string }[] }).members.map((m) => m.user_id)).toEqual([bob.id]);
      expect((await ctx.request({ method: 'GET', url: `/v1/teams/${blue.id}` })).json()).toMatchObject({
        member_count: 0,
      });
      expect((await ctx.request({ method: 'GET', url: `/v1/teams/${elsewhere.id}` })).json()).toMatchObject({
        member_count: 1,
      });
      expect((await ctx.request({ method: 'GET', url: `/v1/organizations/${other.id}` })).json()).toMatchObject({
        member_count: 2,
      });
      // Alice no longer sees the organization or its teams.
      expectError(
        await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}`, as: alice }),
        404,
        'not_found',
      );
      expectError(await ctx.request({ method: 'GET', url: `/v1/teams/${red.id}`, as: alice }), 404, 'not_found');
    });

    it('is 404 for a non-member and for an unknown user', async () => {
      const org = await createOrg('Acme');
      expectError(
        await ctx.request({ method: 'DELETE', url: `/v1/organizations/${org.id}/members/${alice.id}` }),
        404,
        'not_found',
      );
      expectError(
        await ctx.request({
          method: 'DELETE',
          url: `/v1/organizations/${org.id}/members/usr_01JZZZZZZZZZZZZZZZZZZZZZZZ`,
        }),
        404,
        'not_found',
      );
    });

    it('refuses to remove the last owner (409) and changes nothing', async () => {
      const org = await createOrg('Acme');
      const team = await createTeam(org.id, 'Red');
      await ctx.request({ method: 'POST', url: `/v1/teams/${team.id}/members`, payload: { user_id: ctx.owner.id } });
      expectError(
        await ctx.request({ method: 'DELETE', url: `/v1/organizations/${org.id}/members/${ctx.owner.id}` }),
        409,
        'conflict',
      );
      expect(await members(org.id)).toHaveLength(1);
      expect((await ctx.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json()).toMatchObject({
        member_count: 1,
      });
    });

    it('lets an owner remove another owner, and themself once another owner remains', async () => {
      const org = await createOrg('Acme');
      await putMember(org.id, alice, 'owner');
      expect(
        (await ctx.request({ method: 'DELETE', url: `/v1/organizations/${org.id}/members/${alice.id}` })).statusCode,
      ).toBe(204);
      await putMember(org.id, alice, 'owner');
      expect(
        (await ctx.request({ method: 'DELETE', url: `/v1/organizations/${org.id}/members/${ctx.owner.id}` }))
          .statusCode,
      ).toBe(204);
      expectError(await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}` }), 404, 'not_found');
      const left = await ctx.request({ method: 'GET', url: `/v1/organizations/${org.id}/members`, as: alice });
      expect((left.json() as { members: MemberBody[] }).members).toEqual([
        expect.objectContaining({ user_id: alice.id, role: 'owner' }),
      ]);
    });
  });
});
