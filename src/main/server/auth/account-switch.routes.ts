import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db, UserRow } from '../../db/index';
import { BROWSER_SESSION, type SessionLifetime } from '../../users/session-policy';
import { createSession, deleteSession, findUserBySession } from '../../users/sessions.repository';
import { currentSession, endSession } from './browser-session';
import { registerFormParser } from './form-body';
import { sendPage } from './page-reply';
import { PENDING_SIGN_IN_MS, type PendingSignIns } from './pending-sign-ins';
import { isHttps, SESSION_COOKIE, sessionCookieName } from './session-cookie';
import { messagePage, switchPage } from './sign-in-pages';

// Login CSRF: a sign-in link another program opens (a mail, a chat, a page that launches the
// browser) is a navigation the person did not type, yet it looks exactly like one. Where this
// browser is already signed in as someone else, the link no longer switches accounts by itself:
// the person is asked first, on a page of ours, and answers with a same-origin POST.

export const SWITCH_PATH = '/sign-in/switch';

/** Names the waiting sign-in; sent only to SWITCH_PATH, for PENDING_SIGN_IN_MS. */
const switchCookieName = (port: number | null): string =>
  port === null ? 'scandesk_switch' : `scandesk_switch_${port}`;
const SWITCH_COOKIE = { path: '/sign-in', httpOnly: true, sameSite: 'strict' } as const;

const PENDING_LIFETIME: SessionLifetime = { idleMs: PENDING_SIGN_IN_MS, absoluteMs: PENDING_SIGN_IN_MS };

const EXPIRED =
  'This question has been answered already or has expired. Open the sign-in link again if you still want it.';

/**
 * Holds the sign-in of `user` back and sends the browser to the question. The address with the
 * token is answered by a redirect, as every sign-in is, so it never becomes a page or a history
 * entry; the question's page holds neither the token nor anything that can be used without it.
 */
export async function askBeforeSwitching(
  db: Db,
  pendingSignIns: PendingSignIns,
  request: FastifyRequest,
  reply: FastifyReply,
  signIn: { port: number | null; user: UserRow; tokenId: string | undefined; returnTo: string },
): Promise<void> {
  const { port, user, tokenId, returnTo } = signIn;
  const witnessId = await createSession(db, user.id, { lifetime: PENDING_LIFETIME, port, tokenId });
  const { id } = pendingSignIns.add({ witnessId, tokenId, returnTo });
  const cookie = { ...SWITCH_COOKIE, secure: isHttps(request), maxAge: PENDING_SIGN_IN_MS / 1000 };
  await reply
    .header('Cache-Control', 'no-store')
    .setCookie(switchCookieName(port), id, cookie)
    .redirect(SWITCH_PATH, 303);
}

const SwitchAnswer = Type.Object(
  {
    action: Type.Union([Type.Literal('switch'), Type.Literal('cancel')]),
    nonce: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);

export const accountSwitchRoutes: FastifyPluginAsyncTypebox<{ db: Db; port: () => number | null }> = async (
  app,
  { db, port },
) => {
  // The answer is an HTML form; this scope alone reads form bodies (the API takes JSON only).
  registerFormParser(app, 1024);
  if (!app.hasDecorator('pendingSignIns')) throw new Error('register the authentication plugin first');
  const { pendingSignIns } = app;

  app.get(SWITCH_PATH, { schema: { hide: true } }, async (request, reply) => {
    const pending = pendingSignIns.peek(request.cookies[switchCookieName(port())] ?? '');
    const next = pending && (await findUserBySession(db, pending.witnessId, port()));
    if (!pending || !next) return sendPage(reply, 410, messagePage(EXPIRED));
    const current = await currentSession(db, request, port());
    const question = { current: current?.user.name, next: next.name, nonce: pending.nonce, action: SWITCH_PATH };
    // Under the server-wide `no-referrer`, a browser sends `Origin: null` with a form's POST, which
    // the Origin guard refuses; `same-origin` gives our own origin and still no Referer elsewhere.
    return sendPage(reply.header('Referrer-Policy', 'same-origin'), 200, switchPage(question));
  });

  app.post(SWITCH_PATH, { schema: { hide: true, body: SwitchAnswer } }, async (request, reply) => {
    // Only the question's own page answers: the Origin guard refuses other origins; a browser's
    // Fetch Metadata must say so too (another port of this host is "same-site", not ours).
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') {
      return sendPage(reply, 403, messagePage('Only the question page of this server can answer it.'));
    }
    const name = switchCookieName(port());
    const id = request.cookies[name] ?? '';
    if (!pendingSignIns.peek(id)) return sendPage(reply.clearCookie(name, SWITCH_COOKIE), 410, messagePage(EXPIRED));
    const pending = pendingSignIns.take(id, request.body.nonce);
    if (!pending) return sendPage(reply, 403, messagePage('This answer does not belong to the question asked.'));
    reply.clearCookie(name, SWITCH_COOKIE);

    if (request.body.action === 'cancel') {
      await deleteSession(db, pending.witnessId);
      return reply.header('Cache-Control', 'no-store').redirect(pending.returnTo, 303);
    }
    const next = await findUserBySession(db, pending.witnessId, port());
    await deleteSession(db, pending.witnessId);
    if (!next) {
      const text = "The link's token no longer works. Run <code>scandesk token</code> for the right one.";
      return sendPage(reply, 410, messagePage(text));
    }
    const sessionId = await createSession(db, next.id, {
      lifetime: BROWSER_SESSION,
      port: port(),
      tokenId: pending.tokenId,
    });
    const replaced = request.cookies[sessionCookieName(port())];
    if (replaced) await endSession(db, replaced);
    return reply
      .header('Cache-Control', 'no-store')
      .setCookie(sessionCookieName(port()), sessionId, { ...SESSION_COOKIE, secure: isHttps(request) })
      .redirect(pending.returnTo, 303);
  });
};
