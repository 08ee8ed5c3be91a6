import type { FastifyRequest } from 'fastify';

/** The browser session cookie's attributes (docs/contract/auth.md#sessions). */
export const SESSION_COOKIE = { path: '/', httpOnly: true, sameSite: 'strict' } as const;

/**
 * Browsers send every cookie of 127.0.0.1 to every port there, so the cookie is named for the port:
 * two servers never overwrite each other's sessions, and each ignores the other's (the session
 * is bound to its port in the store too).
 */
export function sessionCookieName(port: number | null): string {
  return port === null ? 'scandesk_session' : `scandesk_session_${port}`;
}

/** Secure where the browser reached us over https (through a trusted proxy, see AppOptions.trustProxy). */
export const isHttps = (request: FastifyRequest): boolean => request.protocol === 'https';
