/**
 * Tokens through the API: each user lists, issues, revokes and rotates their own, the workspace
 * owner anyone's; ending a token ends the sessions it signed in and its event streams.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedToken, TokenInfo, TokenList } from '../../../src/shared/api/tokens';
import { TOUCH_INTERVAL_MS } from '../../../src/main/users/session-policy';
import { findTokenCredential } from '../../../src/main/users/users.repository';
import { openEventStream } from '../../helpers/event-stream';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

/** Signs in as a browser does on a listening server; the `Cookie` header for its port. */
function signInOver(port: number, user: TestUser): Promise<string> {
  return new Promise((resolve, reject) => {
    const path = `/?token=${encodeURIComponent(user.token)}`;
    request({ host: '127.0.0.1', port, path }, (response) => {
      response.resume();
      const cookie = response.headers['set-cookie']?.[0]?.split(';')[0];
      if (response.statusCode === 303 && cookie) resolve(cookie);
      else reject(new Error(`sign-in answered ${response.statusCode}`));
    })
      .on('error', reject)
      .end();
  });
}

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN_ID = /^tok_[0-9A-HJKMNP-TV-Z]{26}$/;

describe('tokens API', () => {
  let ctx: TestContext;
  let alice: TestUser;
  let bob: TestUser;

  beforeEach(async () => {
    ctx = await createTestContext();
    alice = await ctx.createUser('Alice');
    bob = await ctx.createUser('Bob');
  });
  afterEach(() => ctx.close());

  const me = (as: TestUser | null, headers: Record<string, string> = {}) =>
    ctx.request({ method: 'GET', url: '/v1/me', as, headers });
  const list = async (userId: string, as: TestUser = ctx.owner): Promise<TokenInfo[]> => {
    const response = await ctx.request({ method: 'GET', url: `/v1/users/${userId}/tokens`, as });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as TokenList).tokens;
  };
  const create = async (userId: string, as: TestUser = ctx.owner): Promise<CreatedToken> => {
    const response = await ctx.request({ method: 'POST', url: `/v1/users/${userId}/tokens`, as });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as CreatedToken;
  };
  const tokenIdOf = async (user: TestUser): Promise<string> => (await findTokenCredential(ctx.db, user.token))!.tokenId;

  it("lists a user's own tokens with id, created and last use and a hint, never the token or its hash", async () => {
    const tokens = await list(alice.id, alice);
    expect(tokens).toHaveLength(1);
    const [token] = tokens;
    expect(Object.keys(token!).sort()).toEqual(['created_at', 'hint', 'id', 'last_used_at', 'user_id']);
    expect(token).toEqual({
      id: expect.stringMatching(TOKEN_ID),
      user_id: alice.id,
      created_at: expect.stringMatching(ISO_MS_Z),
      // Alice's request that listed it is a use of it.
      last_used_at: expect.stringMatching(ISO_MS_Z),
      hint: `sdt_…${alice.token.slice(-4)}`,
    });
    const raw = JSON.stringify(tokens);
    expect(raw).not.toContain(alice.token);
    expect(raw).not.toContain('token_hash');
  });

  it('records last use at most once a minute, and not before the first use', async () => {
    const fresh = await create(alice.id, alice);
    const unused = (await list(alice.id, alice)).find((t) => t.id === fresh.id);
    expect(unused?.last_used_at).toBeNull();

    const later = new Date(Date.now() + TOUCH_INTERVAL_MS / 2);
    await findTokenCredential(ctx.db, fresh.token);
    const first = (await list(alice.id, alice)).find((t) => t.id === fresh.id)?.last_used_at;
    expect(first).toMatch(ISO_MS_Z);
    await findTokenCredential(ctx.db, fresh.token, later);
    expect((await list(alice.id, alice)).find((t) => t.id === fresh.id)?.last_used_at).toBe(first);
    const muchLater = new Date(Date.parse(first!) + TOUCH_INTERVAL_MS);
    await findTokenCredential(ctx.db, fresh.token, muchLater);
    expect((await list(alice.id, alice)).find((t) => t.id === fresh.id)?.last_used_at).toBe(muchLater.toISOString());
  });

  it('issues another token (201, Location, shown once) that works beside the first', async () => {
    const response = await ctx.request({ method: 'POST', url: `/v1/users/${alice.id}/tokens`, as: alice });
    expect(response.statusCode).toBe(201);
    const created = response.json() as CreatedToken;
    expect(created).toMatchObject({ user_id: alice.id, last_used_at: null, hint: `sdt_…${created.token.slice(-4)}` });
    expect(response.headers.location).toBe(`/v1/tokens/${created.id}`);
    const read = await ctx.request({ method: 'GET', url: `/v1/tokens/${created.id}`, as: alice });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ ...created, token: undefined, last_used_at: null });
    expect((await me({ ...alice, token: created.token })).json()).toMatchObject({ id: alice.id });
    expect((await me(alice)).statusCode).toBe(200);
    expect((await list(alice.id, alice)).map((t) => t.id)).toContain(created.id);
  });

  it("lets the workspace owner list, issue and revoke any user's tokens", async () => {
    const tokens = await list(alice.id);
    expect(tokens.map((t) => t.user_id)).toEqual([alice.id]);
    const created = await create(alice.id);
    expect(created.user_id).toBe(alice.id);
    expect((await me({ ...alice, token: created.token })).json()).toMatchObject({ id: alice.id });

    const revoked = await ctx.request({ method: 'DELETE', url: `/v1/tokens/${tokens[0]!.id}` });
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expectError(await me(alice), 401, 'unauthorized');
    expect((await me({ ...alice, token: created.token })).statusCode).toBe(200);
  });

  it("refuses another user's tokens to anyone but the owner: 403 for the list, 404 for a token", async () => {
    expectError(await ctx.request({ method: 'GET', url: `/v1/users/${bob.id}/tokens`, as: alice }), 403, 'forbidden');
    expectError(await ctx.request({ method: 'POST', url: `/v1/users/${bob.id}/tokens`, as: alice }), 403, 'forbidden');
    expectError(
      await ctx.request({ method: 'POST', url: `/v1/users/${bob.id}/tokens/rotate`, as: alice }),
      403,
      'forbidden',
    );
    expectError(
      await ctx.request({ method: 'GET', url: `/v1/users/${ctx.owner.id}/tokens`, as: alice }),
      403,
      'forbidden',
    );
    // Whether a user exists is not told by the answer either.
    expectError(await ctx.request({ method: 'GET', url: '/v1/users/usr_nobody/tokens', as: alice }), 403, 'forbidden');

    const bobsToken = await tokenIdOf(bob);
    const unknown = await ctx.request({ method: 'DELETE', url: '/v1/tokens/tok_nothing', as: alice });
    const others = await ctx.request({ method: 'DELETE', url: `/v1/tokens/${bobsToken}`, as: alice });
    expectError(unknown, 404, 'not_found');
    expectError(others, 404, 'not_found');
    expect(others.json()).toEqual(unknown.json());
    expectError(await ctx.request({ method: 'GET', url: `/v1/tokens/${bobsToken}`, as: alice }), 404, 'not_found');
    expect((await me(bob)).statusCode).toBe(200);
    expect(await list(bob.id)).toHaveLength(1);
  });

  it('answers 404 to the owner for a user that does not exist', async () => {
    expectError(await ctx.request({ method: 'GET', url: '/v1/users/usr_nobody/tokens' }), 404, 'not_found');
    expectError(await ctx.request({ method: 'POST', url: '/v1/users/usr_nobody/tokens' }), 404, 'not_found');
  });

  it('revoking a token ends the sessions it signed in, and only those', async () => {
    const second = await create(alice.id, alice);
    const viaFirst = await ctx.signIn(alice);
    const viaSecond = await ctx.signIn({ ...alice, token: second.token });
    const bobs = await ctx.signIn(bob);
    const response = await ctx.request({ method: 'DELETE', url: `/v1/tokens/${await tokenIdOf(alice)}`, as: alice });
    expect(response.statusCode).toBe(204);
    expectError(await me(null, { cookie: viaFirst }), 401, 'unauthorized');
    expect((await me(null, { cookie: viaSecond })).statusCode).toBe(200);
    expect((await me(null, { cookie: bobs })).statusCode).toBe(200);
  });

  it('a session can revoke the token that signed it in, which ends that session', async () => {
    const cookie = await ctx.signIn(alice);
    const tokenId = await tokenIdOf(alice);
    const response = await ctx.request({
      method: 'DELETE',
      url: `/v1/tokens/${tokenId}`,
      as: null,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(204);
    expectError(await me(null, { cookie }), 401, 'unauthorized');
    expectError(await me(alice), 401, 'unauthorized');
  });

  it('rotating revokes every token of the user, ends all their sessions, and returns one new token', async () => {
    const second = await create(alice.id, alice);
    const cookie = await ctx.signIn(alice);
    const bobs = await ctx.signIn(bob);
    const response = await ctx.request({ method: 'POST', url: `/v1/users/${alice.id}/tokens/rotate` });
    expect(response.statusCode).toBe(201);
    const rotated = response.json() as CreatedToken;
    expect(response.headers.location).toBe(`/v1/tokens/${rotated.id}`);
    expectError(await me(alice), 401, 'unauthorized');
    expectError(await me({ ...alice, token: second.token }), 401, 'unauthorized');
    expectError(await me(null, { cookie }), 401, 'unauthorized');
    expect((await me({ ...alice, token: rotated.token })).json()).toMatchObject({ id: alice.id });
    expect((await list(alice.id)).map((t) => t.id)).toEqual([rotated.id]);
    expect((await me(bob)).statusCode).toBe(200);
    expect((await me(null, { cookie: bobs })).statusCode).toBe(200);
  });

  it("keeps the data directory's token file working: revoking its token is 409, rotating rewrites it", async () => {
    const fileToken = () => readFileSync(join(ctx.dataDir, 'token'), 'utf8').trim();
    expect(fileToken()).toBe(ctx.owner.token);
    const ownerTokenId = await tokenIdOf(ctx.owner);
    const refused = await ctx.request({ method: 'DELETE', url: `/v1/tokens/${ownerTokenId}` });
    expectError(refused, 409, 'conflict');
    expect((await me(ctx.owner)).statusCode).toBe(200);

    // A second token of the owner is theirs to revoke.
    const spare = await create(ctx.owner.id);
    expect((await ctx.request({ method: 'DELETE', url: `/v1/tokens/${spare.id}` })).statusCode).toBe(204);

    const rotated = (
      await ctx.request({ method: 'POST', url: `/v1/users/${ctx.owner.id}/tokens/rotate` })
    ).json() as CreatedToken;
    expect(fileToken()).toBe(rotated.token);
    // Rotating another user's tokens leaves the file alone.
    await ctx.request({
      method: 'POST',
      url: `/v1/users/${alice.id}/tokens/rotate`,
      as: { ...ctx.owner, token: rotated.token },
    });
    expect(fileToken()).toBe(rotated.token);
  });

  it('revoking a token ends the event streams it opened and those of its sessions, at once', async () => {
    const second = await create(alice.id, alice);
    const tokenId = await tokenIdOf(alice);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const cookie = await signInOver(port, alice);
    const byToken = await openEventStream(port, alice.token);
    const bySecond = await openEventStream(port, second.token);
    const bySession = await openEventStream(port, { cookie });
    const revoked = await ctx.request({
      method: 'DELETE',
      url: `/v1/tokens/${tokenId}`,
      as: alice,
      headers: { host: `127.0.0.1:${port}` },
    });
    expect(revoked.statusCode).toBe(204);
    const ended = (stream: { ended: Promise<void> }) =>
      Promise.race([stream.ended.then(() => true), new Promise<boolean>((done) => setTimeout(() => done(false), 300))]);
    expect(await ended(byToken)).toBe(true);
    expect(await ended(bySession)).toBe(true);
    expect(await ended(bySecond)).toBe(false);
    bySecond.close();
  });
});
