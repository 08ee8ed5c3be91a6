import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../../db/index';
import { BROWSER_SESSION } from '../../users/session-policy';
import { createSession } from '../../users/sessions.repository';
import { findTokenCredential } from '../../users/users.repository';
import { currentSession, endSession } from './browser-session';
import { registerFormParser } from './form-body';
import { sendPage } from './page-reply';
import { sameOriginRedirect } from '../request-path';
import { isHttps, SESSION_COOKIE, sessionCookieName } from './session-cookie';
import { messagePage, SIGN_IN_PATH, signInPage } from './sign-in-pages';

// The sign-in form posts the token, so that it never stands in an address (history, the address
// bar, a proxy's log). Posting is what another page could also do to sign this browser in as
// someone else (login CSRF): the Origin guard that every request passes refuses other origins,
// and Fetch Metadata must say the form is our own page's, as for the account-switch answer.

const SignInForm = Type.Object(
  {
    token: Type.String({ maxLength: 200 }),
    return_to: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

const WRONG_TOKEN = 'That token is not valid on this server. Check that you copied all of it, or print it again.';

export const signInRoutes: FastifyPluginAsyncTypebox<{ db: Db; port: () => number | null }> = async (
  app,
  { db, port },
) => {
  registerFormParser(app, 4096);

  app.post(SIGN_IN_PATH, { schema: { hide: true, body: SignInForm } }, async (request, reply) => {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') {
      return sendPage(
        reply,
        403,
        messagePage('Sign in from this server’s own page: open it and type the token there.'),
      );
    }
    const returnTo = sameOriginRedirect(request.body.return_to ?? '/', 'token');
    const credential = await findTokenCredential(db, request.body.token.trim());
    if (!credential) {
      // The page posts its form again: under the server-wide `no-referrer`, a browser would send
      // `Origin: null` with it, which the Origin guard refuses; `same-origin` sends ours.
      return sendPage(
        reply.header('Referrer-Policy', 'same-origin'),
        401,
        signInPage({ error: WRONG_TOKEN, returnTo }),
      );
    }
    const { user, tokenId } = credential;
    // Only our own page can get here, where the person typed the token: whoever signed in before
    // is replaced without asking, as when they sign out and in again.
    const current = await currentSession(db, request, port());
    const sessionId = await createSession(db, user.id, { lifetime: BROWSER_SESSION, port: port(), tokenId });
    if (current) await endSession(db, current.id);
    return reply
      .header('Cache-Control', 'no-store')
      .setCookie(sessionCookieName(port()), sessionId, { ...SESSION_COOKIE, secure: isHttps(request) })
      .redirect(returnTo, 303);
  });
};
