import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BROWSER_SESSION } from '../../../../src/main/users/session-policy';
import { createSession } from '../../../../src/main/users/sessions.repository';
import { hashToken } from '../../../../src/main/users/token';
import { rotateTokensOf } from '../../../../src/main/users/tokens.service';
import { expectError } from '../../../helpers/assertions';
import { createTestContext, type TestContext } from '../../../helpers/test-app';

const INDEX = '<!doctype html><title>Scandesk</title><div id="root"></div>';

function sessionCookie(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((cookie) => cookie.startsWith('scandesk_session='));
  if (!header) throw new Error('no session cookie was set');
  return header;
}

describe('browser sign-in with /?token= and the session cookie (docs/contract/auth.md#sessions)', () => {
  let ctx: TestContext;
  let rendererDir: string;
  beforeAll(async () => {
    rendererDir = mkdtempSync(join(tmpdir(), 'scandesk-renderer-'));
    writeFileSync(join(rendererDir, 'index.html'), INDEX);
    ctx = await createTestContext({ rendererDir });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(rendererDir, { recursive: true, force: true });
  });

  async function signIn(url = `/?token=${ctx.owner.token}`): Promise<{ cookie: string; location: string }> {
    const response = await ctx.request({ method: 'GET', url, as: null });
    expect(response.statusCode).toBe(303);
    const header = sessionCookie(response.headers['set-cookie']);
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Strict/i);
    expect(header).toMatch(/Path=\//i);
    return { cookie: header.split(';')[0]!, location: String(response.headers.location) };
  }

  it('exchanges the token once for a cookie and redirects to the same page without it', async () => {
    const { cookie, location } = await signIn();
    expect(location).toBe('/');
    expect(cookie).not.toContain(ctx.owner.token);
    const me = await ctx.request({ method: 'GET', url: '/v1/me', as: null, headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: ctx.owner.id, name: 'local' });
  });

  it('keeps the rest of a deep link', async () => {
    const { location } = await signIn(`/scans/scan_x?token=${ctx.owner.token}&tool=Claude`);
    expect(location).toBe('/scans/scan_x?tool=Claude');
  });

  it('refuses an unknown token without setting a cookie', async () => {
    const response = await ctx.request({ method: 'GET', url: '/?token=sdt_wrong', as: null });
    expect(response.statusCode).toBe(401);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.body).toContain('unknown token');
  });

  it('does not let a cross-site page use the cookie', async () => {
    const { cookie } = await signIn();
    const response = await ctx.request({
      method: 'GET',
      url: '/v1/me',
      as: null,
      headers: { cookie, origin: 'http://evil.example' },
    });
    expectError(response, 403, 'forbidden');
  });

  it('DELETE /v1/session ends the session and clears the cookie', async () => {
    const { cookie } = await signIn();
    const out = await ctx.request({ method: 'DELETE', url: '/v1/session', as: null, headers: { cookie } });
    expect(out.statusCode).toBe(204);
    expect(sessionCookie(out.headers['set-cookie'])).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);
    expectError(
      await ctx.request({ method: 'GET', url: '/v1/me', as: null, headers: { cookie } }),
      401,
      'unauthorized',
    );
  });

  it('an unknown session cookie is 401', async () => {
    const response = await ctx.request({
      method: 'GET',
      url: '/v1/me',
      as: null,
      headers: { cookie: 'scandesk_session=sds_forged' },
    });
    expectError(response, 401, 'unauthorized');
  });

  it('serves index.html for the viewer deep links, with the CSP, but never for /v1', async () => {
    const page = await ctx.request({ method: 'GET', url: '/scans/scan_123?tool=Claude', as: null });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(INDEX);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expectError(await ctx.request({ method: 'GET', url: '/v1/nothing-here' }), 404, 'not_found');
    expectError(await ctx.request({ method: 'GET', url: '/assets/missing.js', as: null }), 404, 'not_found');
  });
});

describe('the redirect after sign-in stays on this server', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(() => ctx.close());

  // A real socket: injection would parse the target as a URL first, reading `//host` as a host.
  const get = (target: string): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: target }, (response) => {
        response.resume();
        resolve(response);
      });
      request.on('error', reject).end();
    });

  it.each(['/.//evil.example/x', '//evil.example/x', '/\\evil.example/x', '/\\/evil.example/x', '/./\\evil.example/x'])(
    '%s?token= → a path here, never another host',
    async (path) => {
      const response = await get(`${path}?token=${encodeURIComponent(ctx.owner.token)}&tool=Claude`);
      expect(response.statusCode).toBe(303);
      expect(response.headers['set-cookie']).toBeDefined();
      expect(response.headers.location).toBe('/evil.example/x?tool=Claude');
      expect(new URL(response.headers.location!, `http://127.0.0.1:${port}/`).origin).toBe(`http://127.0.0.1:${port}`);
    },
  );
});

describe('session lifetimes, binding and rotation (docs/security.md)', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const me = (cookie: string, headers: Record<string, string> = {}) =>
    ctx.request({ method: 'GET', url: '/v1/me', as: null, headers: { cookie, ...headers } });
  const sessionCount = async () => (await ctx.db.selectFrom('sessions').select('id_hash').execute()).length;

  it('rotating the token ends every session of that user, and only theirs', async () => {
    const other = await ctx.createUser('other');
    const owners = [await ctx.signIn(), await ctx.signIn()];
    const others = await ctx.signIn(other);
    await rotateTokensOf(ctx.db, ctx.owner.id);
    for (const cookie of owners) expectError(await me(cookie), 401, 'unauthorized');
    expect((await me(others)).statusCode).toBe(200);
  });

  it('ends a session left idle, and one past its absolute lifetime however busy', async () => {
    const HOUR_MS = 3_600_000;
    // First: a sign-in purges sessions that have ended, and these are to be found dead by use.
    const fresh = await ctx.signIn();
    const idle = await createSession(ctx.db, ctx.owner.id, {
      lifetime: BROWSER_SESSION,
      port: null,
      at: new Date(Date.now() - BROWSER_SESSION.idleMs - HOUR_MS),
    });
    const old = await createSession(ctx.db, ctx.owner.id, {
      lifetime: BROWSER_SESSION,
      port: null,
      at: new Date(Date.now() - BROWSER_SESSION.absoluteMs - HOUR_MS),
    });
    await ctx.db
      .updateTable('sessions')
      .set({ last_used_at: new Date().toISOString() })
      .where('id_hash', '=', hashToken(old))
      .execute();
    expect(await sessionCount()).toBe(3);
    expectError(await me(`scandesk_session=${idle}`), 401, 'unauthorized');
    expectError(await me(`scandesk_session=${old}`), 401, 'unauthorized');
    expect((await me(fresh)).statusCode).toBe(200);
    // Found dead, they are gone for good.
    expect(await sessionCount()).toBe(1);
  });

  it('refuses a session made for another server (port)', async () => {
    const elsewhere = await createSession(ctx.db, ctx.owner.id, { lifetime: BROWSER_SESSION, port: 4790 });
    expectError(await me(`scandesk_session=${elsewhere}`), 401, 'unauthorized');
    expect(await sessionCount()).toBe(1);
  });

  it('refuses a session cookie sent on behalf of another local page (same-site is another origin)', async () => {
    const cookie = await ctx.signIn();
    expectError(await me(cookie, { 'sec-fetch-site': 'same-site' }), 403, 'forbidden');
    expect((await me(cookie, { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
  });

  it('takes /?token= only as a navigation the user made, never from an <img> or another local page', async () => {
    const exchange = (headers: Record<string, string>) =>
      ctx.request({ method: 'GET', url: `/?token=${ctx.owner.token}`, as: null, headers });
    const image = await exchange({
      'sec-fetch-site': 'same-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'image',
    });
    const link = await exchange({
      'sec-fetch-site': 'same-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    for (const response of [image, link]) {
      expect(response.statusCode).toBe(403);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(await sessionCount()).toBe(0);
    const typed = await exchange({
      'sec-fetch-site': 'none',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    expect(typed.statusCode).toBe(303);
  });
});

describe('the session cookie behind a TLS proxy (serve --trust-proxy)', () => {
  const signInCookie = async (ctx: TestContext, forwarded: Record<string, string>): Promise<string> => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/?token=${encodeURIComponent(ctx.owner.token)}`,
      headers: forwarded,
    });
    expect(response.statusCode, response.body).toBe(303);
    return [response.headers['set-cookie'] ?? []].flat()[0]!;
  };

  it('is Secure when the proxy on this machine says the browser came over https', async () => {
    const ctx = await createTestContext({ trustProxy: true });
    try {
      expect(await signInCookie(ctx, { 'x-forwarded-proto': 'https' })).toMatch(/; Secure/);
      expect(await signInCookie(ctx, {})).not.toMatch(/; Secure/);
    } finally {
      await ctx.close();
    }
  });

  it('ignores X-Forwarded-Proto unless told to trust a proxy', async () => {
    const ctx = await createTestContext();
    try {
      expect(await signInCookie(ctx, { 'x-forwarded-proto': 'https' })).not.toMatch(/; Secure/);
    } finally {
      await ctx.close();
    }
  });
});
