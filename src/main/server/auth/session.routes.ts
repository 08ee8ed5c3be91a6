import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/index';
import { accountSwitchRoutes } from './account-switch.routes';
import { endSession } from './browser-session';
import { SESSION_COOKIE, sessionCookieName } from './session-cookie';
import { signInRoutes } from './sign-in.routes';

/**
 * The browser's way in and out: the sign-in form, the account-switch question and sign-out. The
 * authentication plugin must be registered first: it parses cookies and holds the sign-ins that
 * wait for an answer.
 */
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
      if (sessionId) await endSession(db, sessionId);
      return reply.clearCookie(name, SESSION_COOKIE).code(204).send(null);
    },
  );
};
