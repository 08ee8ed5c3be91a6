import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../../../helpers/assertions';
import { createTestContext, type TestContext, type TestUser } from '../../../helpers/test-app';

// A sign-in link opened from another program (mail, chat, a page that launches the browser) is a
// navigation like one the person typed. It must not replace another user's session unasked.

const navigation = { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
const HOST = '127.0.0.1:4790';
const ourPage = { host: HOST, origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' };

/** `name=value` of each Set-Cookie, keyed by name, with the whole header. */
function cookiesSet(response: LightMyRequestResponse): Map<string, { pair: string; header: string }> {
  const headers = [response.headers['set-cookie'] ?? []].flat();
  return new Map(headers.map((header) => [header.split('=')[0]!, { pair: header.split(';')[0]!, header }]));
}

describe('a sign-in link for another user than the signed-in one asks first', () => {
  let ctx: TestContext;
  let mallory: TestUser;
  let owner: string;
  beforeEach(async () => {
    ctx = await createTestContext();
    mallory = await ctx.createUser('mallory');
    owner = await ctx.signIn();
  });
  afterEach(() => ctx.close());

  const me = async (cookie: string): Promise<LightMyRequestResponse> =>
    ctx.request({ method: 'GET', url: '/v1/me', as: null, headers: { cookie } });
  const openLink = (user: TestUser, cookie: string, path = '/') =>
    ctx.request({
      method: 'GET',
      url: `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(user.token)}`,
      as: null,
      headers: { ...navigation, cookie },
    });
  const sessionCount = async (userId: string): Promise<number> =>
    (await ctx.db.selectFrom('sessions').select('id_hash').where('user_id', '=', userId).execute()).length;

  /** Opens mallory's link while signed in as the owner; returns the question's cookie and page. */
  async function ask(path = '/'): Promise<{ question: string; page: LightMyRequestResponse; nonce: string }> {
    const opened = await openLink(mallory, owner, path);
    expect(opened.statusCode, opened.body).toBe(303);
    expect(opened.headers.location).toBe('/sign-in/switch');
    const set = cookiesSet(opened);
    expect([...set.keys()]).toEqual(['scandesk_switch']);
    const question = set.get('scandesk_switch')!;
    expect(question.header).toMatch(/HttpOnly/i);
    expect(question.header).toMatch(/SameSite=Strict/i);
    expect(question.header).toMatch(/Path=\/sign-in(;|$)/);
    expect(question.header).toMatch(/Max-Age=300/);
    expect(question.header).not.toContain(mallory.token);
    const page = await ctx.request({
      method: 'GET',
      url: '/sign-in/switch',
      as: null,
      headers: { cookie: `${owner}; ${question.pair}` },
    });
    const nonce = /name="nonce" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    return { question: question.pair, page, nonce };
  }

  const answer = (question: string, body: string, headers: Record<string, string> = ourPage) =>
    ctx.request({
      method: 'POST',
      url: '/sign-in/switch',
      as: null,
      headers: { ...headers, cookie: `${owner}; ${question}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });

  it('keeps the browser signed in as before, and shows who is who', async () => {
    const { page } = await ask();
    expect((await me(owner)).json()).toMatchObject({ id: ctx.owner.id });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    // A form's POST carries the page's origin only under a referrer policy that allows it.
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.body).toContain('You are signed in to Scandesk as <strong>local</strong>');
    expect(page.body).toContain('Switch to <strong>mallory</strong>');
    expect(page.body).toMatch(/<form method="post" action="\/sign-in\/switch">/);
    expect(page.body).not.toContain(mallory.token);
    expect(page.body).not.toContain('<script');
  });

  it('switches on a confirmation from its own page, to the link it was for, ending the old session', async () => {
    const { question, nonce } = await ask('/scans/scan_x?tool=Claude');
    const confirmed = await answer(question, `action=switch&nonce=${encodeURIComponent(nonce)}`);
    expect(confirmed.statusCode, confirmed.body).toBe(303);
    expect(confirmed.headers.location).toBe('/scans/scan_x?tool=Claude');
    const set = cookiesSet(confirmed);
    expect(set.get('scandesk_switch')?.header).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);
    const session = set.get('scandesk_session')!;
    expect(session.header).toMatch(/HttpOnly/i);
    expect((await me(session.pair)).json()).toMatchObject({ id: mallory.id, name: 'mallory' });
    expectError(await me(owner), 401, 'unauthorized');
    // The session that stood for the waiting link is gone; mallory has the one session handed out.
    expect(await sessionCount(mallory.id)).toBe(1);
  });

  it('stays as before when the person declines', async () => {
    const { question, nonce } = await ask();
    const declined = await answer(question, `action=cancel&nonce=${encodeURIComponent(nonce)}`);
    expect(declined.statusCode, declined.body).toBe(303);
    expect(declined.headers.location).toBe('/');
    expect(cookiesSet(declined).has('scandesk_session')).toBe(false);
    expect((await me(owner)).json()).toMatchObject({ id: ctx.owner.id });
    expect(await sessionCount(mallory.id)).toBe(0);
  });

  it.each([
    { label: 'another origin', headers: { ...ourPage, origin: 'http://evil.example' }, status: 403 },
    { label: 'another local page (same-site)', headers: { ...ourPage, 'sec-fetch-site': 'same-site' }, status: 403 },
    { label: 'a cross-site form', headers: { host: HOST, 'sec-fetch-site': 'cross-site' }, status: 403 },
  ])('refuses an answer from $label', async ({ headers }) => {
    const { question, nonce } = await ask();
    const refused = await answer(question, `action=switch&nonce=${encodeURIComponent(nonce)}`, headers);
    expect(refused.statusCode).toBe(403);
    expect(cookiesSet(refused).has('scandesk_session')).toBe(false);
    expect((await me(owner)).json()).toMatchObject({ id: ctx.owner.id });
  });

  it('refuses an answer without the nonce of the question page, and keeps asking', async () => {
    const { question, nonce } = await ask();
    const forged = await answer(question, 'action=switch&nonce=guessed');
    expect(forged.statusCode).toBe(403);
    expect(cookiesSet(forged).has('scandesk_session')).toBe(false);
    const confirmed = await answer(question, `action=switch&nonce=${encodeURIComponent(nonce)}`);
    expect(confirmed.statusCode).toBe(303);
  });

  it('takes one answer per question', async () => {
    const { question, nonce } = await ask();
    expect((await answer(question, `action=cancel&nonce=${encodeURIComponent(nonce)}`)).statusCode).toBe(303);
    const again = await answer(question, `action=switch&nonce=${encodeURIComponent(nonce)}`);
    expect(again.statusCode).toBe(410);
    expect(cookiesSet(again).has('scandesk_session')).toBe(false);
    const page = await ctx.request({ method: 'GET', url: '/sign-in/switch', as: null, headers: { cookie: question } });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('Open the sign-in link again');
  });

  it("does not switch once the link's token has been revoked", async () => {
    const { question, nonce } = await ask();
    // What revoking or rotating a token does to its sessions, the waiting one included.
    await ctx.db.deleteFrom('sessions').where('user_id', '=', mallory.id).execute();
    const confirmed = await answer(question, `action=switch&nonce=${encodeURIComponent(nonce)}`);
    expect(confirmed.statusCode).toBe(410);
    expect(cookiesSet(confirmed).has('scandesk_session')).toBe(false);
    expect((await me(owner)).json()).toMatchObject({ id: ctx.owner.id });
  });

  it('refuses a body that is not the form', async () => {
    const { question } = await ask();
    const response = await answer(question, 'action=both&nonce=x');
    expectError(response, 400, 'validation_failed');
  });

  it("escapes the users' names on the page", async () => {
    const odd = await ctx.createUser('<img src=x onerror=alert(1)>');
    const opened = await openLink(odd, owner);
    const question = cookiesSet(opened).get('scandesk_switch')!.pair;
    const page = await ctx.request({
      method: 'GET',
      url: '/sign-in/switch',
      as: null,
      headers: { cookie: `${owner}; ${question}` },
    });
    expect(page.body).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(page.body).not.toContain('<img');
  });
});

describe('a sign-in link for the signed-in user, or a browser not signed in, needs no question', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext();
  });
  afterEach(() => ctx.close());

  const open = (cookie?: string) =>
    ctx.request({
      method: 'GET',
      url: `/scans?token=${encodeURIComponent(ctx.owner.token)}&tool=Claude`,
      as: null,
      headers: { ...navigation, ...(cookie ? { cookie } : {}) },
    });

  it('signs in silently where there is no session, or where it ended', async () => {
    const first = await open();
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/scans?tool=Claude');
    expect(cookiesSet(first).has('scandesk_session')).toBe(true);
    const ended = await open('scandesk_session=sds_gone');
    expect(ended.statusCode).toBe(303);
    expect(ended.headers.location).toBe('/scans?tool=Claude');
    expect(cookiesSet(ended).has('scandesk_session')).toBe(true);
  });

  it('refreshes the same user silently, ending the session the new cookie replaces', async () => {
    const before = await ctx.signIn();
    const again = await open(before);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/scans?tool=Claude');
    const after = cookiesSet(again).get('scandesk_session')!.pair;
    expect(after).not.toBe(before);
    const me = (cookie: string) => ctx.request({ method: 'GET', url: '/v1/me', as: null, headers: { cookie } });
    expect((await me(after)).statusCode).toBe(200);
    expectError(await me(before), 401, 'unauthorized');
  });
});
