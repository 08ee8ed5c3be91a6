import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index';
import { BROWSER_SESSION } from '../../users/session-policy';
import { createSession } from '../../users/sessions.repository';
import { findTokenCredential } from '../../users/users.repository';
import { isUserNavigation } from '../request-guards/fetch-metadata';
import { sameOriginRedirect } from '../request-path';
import { askBeforeSwitching } from './account-switch.routes';
import { currentSession, endSession } from './browser-session';
import type { PendingSignIns } from './pending-sign-ins';
import { isHttps, SESSION_COOKIE, sessionCookieName } from './session-cookie';
import { messagePage } from './sign-in-pages';

/**
 * `/?token=…` (docs/contract/auth.md#sessions): exchanges the token once for an HttpOnly,
 * SameSite=Strict session cookie and redirects to the same page without the token, so it leaves
 * the address bar and history. False when the request carries no token to exchange.
 */
export async function exchangeTokenForSession(
  { db, port, pendingSignIns }: { db: Db; port: number | null; pendingSignIns: PendingSignIns },
  request: FastifyRequest,
  reply: FastifyReply,
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
    await askBeforeSwitching(db, pendingSignIns, request, reply, { port, user, tokenId, returnTo });
    return true;
  }
  // The session records its token: revoking the token ends it.
  const sessionId = await createSession(db, user.id, { lifetime: BROWSER_SESSION, port, tokenId });
  // The same user again: the new cookie replaces the old one, whose session would only linger.
  if (current) await endSession(db, current.id);
  await reply
    .setCookie(sessionCookieName(port), sessionId, { ...SESSION_COOKIE, secure: isHttps(request) })
    .redirect(returnTo, 303);
  return true;
}
