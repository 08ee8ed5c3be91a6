import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index';
import { BROWSER_SESSION, sessionCookieName } from '../users/session-policy';
import { createSession, deleteSession } from '../users/sessions.repository';
import { findTokenCredential } from '../users/users.repository';
import { hashToken } from '../users/token';
import { endStreams } from '../live/live.service';
import { isUserNavigation } from './fetch-metadata';
import { sameOriginRedirect } from './request-path';
import { accountSwitchRoutes, askBeforeSwitching, currentSession, endReplacedSession } from './account-switch.routes';
import { isHttps, SESSION_COOKIE } from './session-cookie';
import { messagePage } from './sign-in-pages';
import { signInRoutes } from './sign-in.routes';

/**
 * `/?token=…` (SPEC.md §2): exchanges the token once for an HttpOnly, SameSite=Strict session
 * cookie and redirects to the same page without the token, so it leaves the address bar and history.
 */
export async function exchangeTokenForSession(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  port: number | null,
): Promise<boolean> {
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  if (request.method !== 'GET' || typeof token !== 'string') return false;
  if (!isUserNavigation(request.headers)) {
    await reply
      .code(403)
      .type('text/html; charset=utf-8')
      .send(messagePage('A sign-in link works only when you open it yourself: paste it into the address bar.'));
    return true;
  }
  const { user, tokenId } = (await findTokenCredential(db, token)) ?? {};
  if (!user) {
    await reply
      .code(401)
      .type('text/html; charset=utf-8')
      .send(messagePage('This sign-in link has an unknown token. Run <code>scandesk token</code> for the right one.'));
    return true;
  }
  const returnTo = sameOriginRedirect(request.url, 'token');
  // Signed in as someone else here already: ask before replacing that session (login CSRF).
  const current = await currentSession(db, request, port);
  if (current && current.user.id !== user.id) {
    await askBeforeSwitching(db, request, reply, { port, user, tokenId, returnTo });
    return true;
  }
  // The session records its token: revoking the token ends it.
  const sessionId = await createSession(db, user.id, { lifetime: BROWSER_SESSION, port, tokenId });
  // The same user again: the new cookie replaces the old one, whose session would only linger.
  if (current) await endReplacedSession(db, current.id);
  await reply
    .setCookie(sessionCookieName(port), sessionId, { ...SESSION_COOKIE, secure: isHttps(request) })
    .redirect(returnTo, 303);
  return true;
}

export const sessionRoutes: FastifyPluginAsyncTypebox<{ db: Db; port: () => number | null }> = async (
  app,
  { db, port },
) => {
  await app.register(accountSwitchRoutes, { db, port });
  await app.register(signInRoutes, { db, port });
  app.delete(
    '/v1/session',
    {
      schema: {
        tags: ['users'],
        summary: 'Ends the browser session (clears the session cookie); bearer tokens stay valid',
        response: { 204: { type: 'null', description: 'Signed out' } },
      },
    },
    async (request, reply) => {
      const name = sessionCookieName(port());
      const sessionId = request.cookies[name];
      if (sessionId) {
        await deleteSession(db, sessionId);
        endStreams(db, { sessionIdHash: hashToken(sessionId) });
      }
      return reply.clearCookie(name, SESSION_COOKIE).code(204).send(null);
    },
  );
};
