import type { FastifyRequest } from 'fastify';

/** The browser session cookie's attributes (SPEC.md §2); its name is sessionCookieName(port). */
export const SESSION_COOKIE = { path: '/', httpOnly: true, sameSite: 'strict' } as const;

/** Secure where the browser reached us over https (through a trusted proxy, see AppOptions.trustProxy). */
export const isHttps = (request: FastifyRequest): boolean => request.protocol === 'https';
