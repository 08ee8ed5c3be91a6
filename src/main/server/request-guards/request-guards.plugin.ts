import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { DomainError, forbidden } from '../../domain-error';
import { API_METHODS } from '../method-not-allowed/method-not-allowed.plugin';
import { isApiRequest, normalizedPath } from '../request-path';
import { isFromAnotherOrigin } from './fetch-metadata';
import { checkRequestOrigin, type GuardOptions } from './origin';
import { SECURITY_HEADERS } from './security-headers';

declare module 'fastify' {
  interface FastifyRequest {
    /** An API request that must say who is asking: decided here once, read by authentication. */
    needsCaller: boolean;
  }
}

// Node parses more methods (QUERY, PROPFIND, ...); none of them means anything here.
const KNOWN_METHODS = new Set<string>([...API_METHODS, 'OPTIONS']);

/**
 * What every request passes before anything reads its body or asks who sent it: the security
 * headers go on every response, refusals included, then the Host and Origin (DNS rebinding,
 * CSRF: docs/contract/auth.md#host-and-origin), the method, the path, and for the API the Fetch
 * Metadata of a page on another origin. Not encapsulated: its hook runs for every route.
 */
export const requestGuards = fp<GuardOptions>(
  async (app, options) => {
    // Built once: @fastify/helmet built the middleware anew per request, parsing the policy each time.
    const securityHeaders = helmet(SECURITY_HEADERS);
    app.decorateRequest('needsCaller', false);
    const guard = (request: FastifyRequest): void => {
      checkRequestOrigin(request, options);
      const path = normalizedPath(request.url);
      if (!KNOWN_METHODS.has(request.method)) throw app.methodNotAllowed(request.method, path);
      if (path.includes('\0') || path.split('/').includes('..')) {
        throw new DomainError('validation_failed', 'the path may not hold ".." segments or NUL characters', [
          { field: 'path', message: 'must not contain ".." or NUL' },
        ]);
      }
      request.needsCaller = isApiRequest(request, path);
      if (request.needsCaller && isFromAnotherOrigin(request.headers)) {
        throw forbidden('requests from other origins are refused');
      }
    };
    // One callback hook, headers first: every request passes it, and a promise per hook costs each.
    app.addHook('onRequest', (request, reply, done) =>
      securityHeaders(request.raw, reply.raw, (error?: unknown) => {
        if (error) return done(error as Error);
        try {
          guard(request);
        } catch (refusal) {
          return done(refusal as Error);
        }
        done();
      }),
    );
  },
  { name: 'request-guards', dependencies: ['method-not-allowed'] },
);
