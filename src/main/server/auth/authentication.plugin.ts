import fastifyCookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import type { Db, UserRow } from '../../db/index';
import type { Credential } from '../../http/credential';
import { authenticate } from './authenticate';
import { PendingSignIns } from './pending-sign-ins';
import { exchangeTokenForSession } from './token-exchange';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set by the authentication plugin on every /v1 route. */
    user: UserRow;
    /** How the caller proved it: a session cookie is weaker (a browser sends it by itself). */
    authenticatedBy: 'bearer' | 'session';
    /** Which token or session it was: what a request keeps open (an event stream) ends with it. */
    credential: Credential;
  }
  interface FastifyInstance {
    /** Sign-in links waiting for the person's answer (account-switch.routes.ts); this app's own. */
    pendingSignIns: PendingSignIns;
  }
}

export interface AuthenticationOptions {
  db: Db;
  /** The port the server listens on; null when it does not (in-process tests). */
  port: () => number | null;
}

/**
 * Who is asking (docs/contract/auth.md#tokens, docs/contract/auth.md#sessions): every API route
 * but the public ones needs a bearer token or this server's session cookie, checked before the
 * body is read; any other page exchanges a `?token=` for a session cookie. Not encapsulated: its
 * hook, the cookie parser and the waiting sign-ins serve every route registered after it.
 */
export const authentication = fp<AuthenticationOptions>(
  async (app, { db, port }) => {
    await app.register(fastifyCookie);
    const pendingSignIns = new PendingSignIns();
    app.decorate('pendingSignIns', pendingSignIns);

    app.addHook('onRequest', async (request, reply) => {
      if (request.needsCaller) {
        Object.assign(request, await authenticate(db, request, port()));
        reply.header('Cache-Control', 'no-store');
      } else if (await exchangeTokenForSession({ db, port: port(), pendingSignIns }, request, reply)) {
        return reply;
      }
    });
  },
  { name: 'authentication', dependencies: ['request-guards'] },
);
