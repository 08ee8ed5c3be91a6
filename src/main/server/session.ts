import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import { createSession, deleteSession } from '../users/sessions.repository';
import { findUserByToken } from '../users/users.repository';
import type { App } from './types';

export const SESSION_COOKIE = 'scandesk_session';

const COOKIE_OPTIONS = { path: '/', httpOnly: true, sameSite: 'strict' } as const;

/** The URL the browser asked for, without the one-time `token` parameter. */
function withoutToken(url: string): string {
  const parsed = new URL(url, 'http://local');
  parsed.searchParams.delete('token');
  return parsed.pathname + parsed.search;
}

/**
 * `/?token=…` (SPEC.md §2): exchanges the token once for an HttpOnly, SameSite=Strict session
 * cookie and redirects to the same page without the token, so it leaves the address bar and history.
 */
export async function exchangeTokenForSession(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  if (request.method !== 'GET' || typeof token !== 'string') return false;
  const user = await findUserByToken(db, token);
  if (!user) {
    await reply
      .code(401)
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><meta charset="utf-8"><title>Scandesk</title>' +
          '<p>This sign-in link has an unknown token. Run <code>scandesk token</code> for the right one.</p>',
      );
    return true;
  }
  const sessionId = await createSession(db, user.id);
  await reply.setCookie(SESSION_COOKIE, sessionId, COOKIE_OPTIONS).redirect(withoutToken(request.url), 303);
  return true;
}

export function registerSessionRoutes(app: App, { db }: { db: Db }): void {
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
      const sessionId = request.cookies[SESSION_COOKIE];
      if (sessionId) await deleteSession(db, sessionId);
      return reply.clearCookie(SESSION_COOKIE, COOKIE_OPTIONS).code(204).send(null);
    },
  );
}
