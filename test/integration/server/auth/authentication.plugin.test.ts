import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authentication } from '../../../../src/main/server/auth/authentication.plugin';
import { PendingSignIns } from '../../../../src/main/server/auth/pending-sign-ins';
import { registerErrorHandler } from '../../../../src/main/server/errors';
import { methodNotAllowed } from '../../../../src/main/server/method-not-allowed/method-not-allowed.plugin';
import { requestGuards } from '../../../../src/main/server/request-guards/request-guards.plugin';
import { createTestContext, type TestContext } from '../../../helpers/test-app';

// The plugin alone, on a store with a workspace owner: what it sets on a request and when.
let ctx: TestContext;
let app: FastifyInstance;
let bodiesRead: number;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
afterEach(() => app.close());

async function authenticatedApp(): Promise<FastifyInstance> {
  bodiesRead = 0;
  app = Fastify();
  registerErrorHandler(app);
  await app.register(methodNotAllowed);
  await app.register(requestGuards, { allowHosts: [], port: () => null, trustProxy: false });
  await app.register(authentication, { db: ctx.db, port: () => null });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    bodiesRead += 1;
    done(null, JSON.parse(body as string));
  });
  const caller = async (request: { user: { id: string }; authenticatedBy: string; credential: { kind: string } }) => ({
    user: request.user.id,
    by: request.authenticatedBy,
    credential: request.credential.kind,
  });
  app.get('/v1/caller', caller);
  app.post('/v1/caller', caller);
  app.get('/v1/public', { config: { public: true } }, async (request) => ({ user: request.user ?? null }));
  app.get('/page', async () => 'page');
  await app.ready();
  return app;
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

describe('the authentication plugin', () => {
  it('sets the caller of an API route from a bearer token, and marks the answer no-store', async () => {
    await authenticatedApp();
    const response = await app.inject({ method: 'GET', url: '/v1/caller', headers: bearer(ctx.owner.token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: ctx.owner.id, by: 'bearer', credential: 'token' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses a missing or unknown token with 401 and WWW-Authenticate, before the body is read', async () => {
    await authenticatedApp();
    for (const headers of [{}, bearer('sdt_unknown'), { authorization: 'Bearer' }]) {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/caller',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '{"a":1}',
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="scandesk"');
      expect(response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
    expect(bodiesRead).toBe(0);
  });

  it('asks nothing of a public API route or of a page', async () => {
    await authenticatedApp();
    expect((await app.inject({ method: 'GET', url: '/v1/public' })).json()).toEqual({ user: null });
    const page = await app.inject({ method: 'GET', url: '/page' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBeUndefined();
  });

  it('exchanges a `?token=` on a page for a session cookie that then authenticates the API', async () => {
    await authenticatedApp();
    const signIn = await app.inject({ method: 'GET', url: `/page?token=${ctx.owner.token}&tab=1` });
    expect(signIn.statusCode).toBe(303);
    expect(signIn.headers.location).toBe('/page?tab=1');
    const cookie = [signIn.headers['set-cookie'] ?? []].flat()[0]!;
    expect(cookie).toMatch(/^scandesk_session=sds_[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const response = await app.inject({ method: 'GET', url: '/v1/caller', headers: { cookie: cookie.split(';')[0]! } });
    expect(response.json()).toEqual({ user: ctx.owner.id, by: 'session', credential: 'session' });
  });

  it('gives each app its own waiting sign-ins', async () => {
    const first = await authenticatedApp();
    const { pendingSignIns } = first;
    await first.close();
    const second = await authenticatedApp();
    expect(pendingSignIns).toBeInstanceOf(PendingSignIns);
    expect(second.pendingSignIns).toBeInstanceOf(PendingSignIns);
    expect(second.pendingSignIns).not.toBe(pendingSignIns);
  });

  it('needs the request guards registered before it', async () => {
    app = Fastify();
    await expect(app.register(authentication, { db: ctx.db, port: () => null })).rejects.toThrow(/request-guards/);
  });
});
