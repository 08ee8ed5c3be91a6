import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assertions';
import { createTestContext, type TestContext } from '../helpers/test-app';

const INDEX = '<!doctype html><title>Scandesk</title><div id="root"></div>';

function sessionCookie(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((cookie) => cookie.startsWith('scandesk_session='));
  if (!header) throw new Error('no session cookie was set');
  return header;
}

describe('browser sign-in with /?token= and the session cookie (SPEC.md §2)', () => {
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
