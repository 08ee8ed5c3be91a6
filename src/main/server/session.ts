import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import { BROWSER_SESSION, sessionCookieName } from '../users/session-policy';
import { createSession, deleteSession } from '../users/sessions.repository';
import { findUserByToken } from '../users/users.repository';
import { hashToken } from '../users/token';
import { endStreams } from '../live/live.service';
import { isUserNavigation } from './fetch-metadata';
import { sameOriginRedirect } from './request-path';

const COOKIE_OPTIONS = { path: '/', httpOnly: true, sameSite: 'strict' } as const;

const page = (text: string): string => `<!doctype html><meta charset="utf-8"><title>Scandesk</title><p>${text}</p>`;

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
      .send(page('A sign-in link works only when you open it yourself: paste it into the address bar.'));
    return true;
  }
  const user = await findUserByToken(db, token);
  if (!user) {
    await reply
      .code(401)
      .type('text/html; charset=utf-8')
      .send(page('This sign-in link has an unknown token. Run <code>scandesk token</code> for the right one.'));
    return true;
  }
  const sessionId = await createSession(db, user.id, { lifetime: BROWSER_SESSION, port });
  // Secure where the browser reached us over https (through a trusted proxy, see AppOptions.trustProxy).
  const options = { ...COOKIE_OPTIONS, secure: request.protocol === 'https' };
  await reply
    .setCookie(sessionCookieName(port), sessionId, options)
    .redirect(sameOriginRedirect(request.url, 'token'), 303);
  return true;
}

export const sessionRoutes: FastifyPluginAsyncTypebox<{ db: Db; port: () => number | null }> = async (
  app,
  { db, port },
) => {
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
      return reply.clearCookie(name, COOKIE_OPTIONS).code(204).send(null);
    },
  );
};
