import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const USER_ID = /^usr_[0-9A-HJKMNP-TV-Z]{26}$/;
const TOKEN = /^sdt_[A-Za-z0-9_-]{43,}$/;

interface UserBody {
  id: string;
  name: string;
  created_at: string;
}

function expectUserShape(value: unknown, name: string): UserBody {
  expect(value).toEqual({ id: expect.stringMatching(USER_ID), name, created_at: expect.stringMatching(ISO_MS_Z) });
  const user = value as UserBody;
  expect(new Date(user.created_at).toISOString()).toBe(user.created_at);
  return user;
}

describe('users routes', () => {
  let ctx: TestContext;
  let other: TestUser;

  beforeEach(async () => {
    ctx = await createTestContext();
    other = await ctx.createUser('Other');
  });
  afterEach(() => ctx.close());

  describe('GET /v1/me', () => {
    it('returns the workspace owner as {id, name, created_at}', async () => {
      const response = await ctx.request({ method: 'GET', url: '/v1/me' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const me = expectUserShape(response.json(), 'local');
      expect(me.id).toBe(ctx.owner.id);
      expect(Object.keys(response.json() as object).sort()).toEqual(['created_at', 'id', 'name']);
    });

    it('returns any other user as themself', async () => {
      const response = await ctx.request({ method: 'GET', url: '/v1/me', as: other });
      expect(response.statusCode).toBe(200);
      expect(expectUserShape(response.json(), 'Other').id).toBe(other.id);
    });

    it('refuses a request without a token with 401 and WWW-Authenticate', async () => {
      const response = await ctx.request({ method: 'GET', url: '/v1/me', as: null });
      expectError(response, 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('refuses an unknown token with 401', async () => {
      const response = await ctx.request({
        method: 'GET',
        url: '/v1/me',
        as: { id: 'usr_x', name: 'nobody', token: 'sdt_not-a-real-token' },
      });
      expectError(response, 401, 'unauthorized');
    });
  });

  describe('POST /v1/users', () => {
    it('creates a user with a working token (201 {user, token}) and trims the name', async () => {
      const response = await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: '  Alice  ' } });
      expect(response.statusCode).toBe(201);
      const body = response.json() as { user: UserBody; token: string };
      expect(Object.keys(body).sort()).toEqual(['token', 'user']);
      const user = expectUserShape(body.user, 'Alice');
      expect(body.token).toMatch(TOKEN);

      const me = await ctx.request({
        method: 'GET',
        url: '/v1/me',
        as: { id: user.id, name: user.name, token: body.token },
      });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual(user);
    });

    it('gives every user a different id and token', async () => {
      const a = await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'Same' } });
      const b = await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'Same' } });
      expect(a.statusCode).toBe(201);
      expect(b.statusCode).toBe(201);
      const bodyA = a.json() as { user: UserBody; token: string };
      const bodyB = b.json() as { user: UserBody; token: string };
      expect(bodyA.user.id).not.toBe(bodyB.user.id);
      expect(bodyA.token).not.toBe(bodyB.token);
    });

    it('refuses a blank name, a control character and unknown fields with 400', async () => {
      expectError(
        await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: '   ' } }),
        400,
        'validation_failed',
      );
      expectError(
        await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'a\u0007b' } }),
        400,
        'validation_failed',
      );
      expectError(
        await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'x'.repeat(101) } }),
        400,
        'validation_failed',
      );
      expectError(
        await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'Bob', admin: true } }),
        400,
        'validation_failed',
      );
    });

    it('is refused to anyone but the workspace owner (403) and creates nothing', async () => {
      const response = await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'Mallory' }, as: other });
      expectError(response, 403, 'forbidden');
      const list = await ctx.request({ method: 'GET', url: '/v1/users' });
      expect((list.json() as { users: UserBody[] }).users.map((u) => u.name)).not.toContain('Mallory');
    });

    it('needs a token (401)', async () => {
      expectError(
        await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'X' }, as: null }),
        401,
        'unauthorized',
      );
    });
  });

  describe('GET /v1/users', () => {
    it('lists every user with the user shape', async () => {
      const created = await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'Alice' } });
      const alice = (created.json() as { user: UserBody }).user;

      const response = await ctx.request({ method: 'GET', url: '/v1/users' });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { users: UserBody[] };
      expect(Object.keys(body)).toEqual(['users']);
      expect(body.users).toHaveLength(3);
      for (const user of body.users) expectUserShape(user, user.name);
      expect(body.users.map((u) => u.id).sort()).toEqual([ctx.owner.id, other.id, alice.id].sort());
      expect(body.users).toContainEqual(alice);
      expect(body.users.find((u) => u.id === ctx.owner.id)?.name).toBe('local');
    });

    it('is refused to anyone but the workspace owner (403)', async () => {
      expectError(await ctx.request({ method: 'GET', url: '/v1/users', as: other }), 403, 'forbidden');
    });

    it('stays refused to a user created through the API', async () => {
      const created = await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'Alice' } });
      const body = created.json() as { user: UserBody; token: string };
      const alice: TestUser = { id: body.user.id, name: body.user.name, token: body.token };
      expectError(await ctx.request({ method: 'GET', url: '/v1/users', as: alice }), 403, 'forbidden');
      expectError(
        await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'Eve' }, as: alice }),
        403,
        'forbidden',
      );
    });
  });
});
