import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../helpers/test-app';

// The viewer's sign-in form posts the token (docs/security.md, "Browser sessions"): a session
// cookie and a redirect for a right token, the form again for a wrong one, and nothing at all for
// a post another page makes.

const HOST = '127.0.0.1:4790';
const ourPage = { host: HOST, origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' };

const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  return [response.headers['set-cookie'] ?? []].flat().find((header) => header.startsWith('scandesk_session='));
}

describe('POST /sign-in', () => {
  let ctx: TestContext;
  let mallory: TestUser;
  beforeEach(async () => {
    ctx = await createTestContext();
    mallory = await ctx.createUser('mallory');
  });
  afterEach(() => ctx.close());

  const post = (body: string, headers: Record<string, string> = ourPage) =>
    ctx.request({
      method: 'POST',
      url: '/sign-in',
      as: null,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });
  const me = (cookie: string) => ctx.request({ method: 'GET', url: '/v1/me', as: null, headers: { cookie } });

  it('exchanges a right token for a session cookie and redirects to where the form was, without the token', async () => {
    const response = await post(form({ token: ` ${ctx.owner.token} `, return_to: '/scans?tool=Claude' }));
    expect(response.statusCode, response.body).toBe(303);
    expect(response.headers.location).toBe('/scans?tool=Claude');
    expect(response.headers['cache-control']).toBe('no-store');
    const header = sessionCookieOf(response);
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Strict/i);
    expect(header).not.toContain(ctx.owner.token);
    expect((await me(header!.split(';')[0]!)).json()).toMatchObject({ id: ctx.owner.id });
  });

  it('redirects only to a path of this server', async () => {
    for (const returnTo of ['//evil.example/x', 'https://evil.example/x', '/\\evil.example', '/?token=abc']) {
      const response = await post(form({ token: ctx.owner.token, return_to: returnTo }));
      expect(response.statusCode).toBe(303);
      const location = String(response.headers.location);
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(location).not.toContain('token=');
    }
    const bare = await post(form({ token: ctx.owner.token }));
    expect(bare.headers.location).toBe('/');
  });

  it('answers a wrong token with a styled 401 page holding the form again, and no cookie', async () => {
    const response = await post(form({ token: 'sdt_wrong', return_to: '/scans' }));
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    // Its own form posts again: under no-referrer the browser would send `Origin: null`.
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(sessionCookieOf(response)).toBeUndefined();
    expect(response.body).toContain('<style>');
    expect(response.body).toContain('That token is not valid on this server');
    expect(response.body).toContain('<form class="sign-in" method="post" action="/sign-in">');
    expect(response.body).toMatch(/<input id="token" name="token" type="password"[^>]*required/);
    expect(response.body).toContain('<input type="hidden" name="return_to" value="/scans">');
    expect(response.body).not.toContain('sdt_wrong');
    expect(response.body).not.toMatch(/<script/i);
  });

  it('refuses a post from another origin, another port of this host included, without a cookie', async () => {
    const cases: Record<string, string>[] = [
      { host: HOST, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      { host: HOST, origin: 'http://127.0.0.1:5000', 'sec-fetch-site': 'same-site' },
      // A page under no-referrer, or a sandboxed frame, posts with an opaque origin.
      { host: HOST, origin: 'null' },
      // Fetch Metadata alone, from a browser that left Origin out.
      { host: HOST, 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of cases) {
      const response = await post(form({ token: mallory.token }), headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(sessionCookieOf(response)).toBeUndefined();
    }
  });

  it('replaces the session this browser held, whoever it was for', async () => {
    const before = await ctx.signIn();
    const response = await post(form({ token: mallory.token }), { ...ourPage, cookie: before });
    expect(response.statusCode).toBe(303);
    const after = sessionCookieOf(response)!.split(';')[0]!;
    expect((await me(after)).json()).toMatchObject({ id: mallory.id });
    expect((await me(before)).statusCode).toBe(401);
  });
});
