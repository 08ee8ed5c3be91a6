import fp from 'fastify-plugin';
import helmet from 'helmet';
import { DomainError, forbidden } from '../../domain-error';
import { API_METHODS } from '../method-not-allowed/method-not-allowed.plugin';
import { isApiRequest, normalizedPath } from '../request-path';
import { isFromAnotherOrigin } from './fetch-metadata';
import { checkRequestOrigin, type GuardOptions } from './origin';
import { SECURITY_HEADERS } from './security-headers';

// Node parses more methods (QUERY, PROPFIND, ...); none of them means anything here.
const KNOWN_METHODS = new Set<string>([...API_METHODS, 'OPTIONS']);

/**
 * What every request passes before anything reads its body or asks who sent it: the security
 * headers go on every response, refusals included, then the Host and Origin (DNS rebinding,
 * CSRF: docs/contract/auth.md#host-and-origin), the method, the path, and for the API the Fetch
 * Metadata of a page on another origin. Not encapsulated: its hooks run for every route.
 */
export const requestGuards = fp<GuardOptions>(
  async (app, options) => {
    // Built once: @fastify/helmet built the middleware anew per request, parsing the policy each time.
    const securityHeaders = helmet(SECURITY_HEADERS);
    app.addHook('onRequest', (request, reply, done) =>
      securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
    );

    app.addHook('onRequest', async (request) => {
      checkRequestOrigin(request, options);
      const path = normalizedPath(request.url);
      if (!KNOWN_METHODS.has(request.method)) throw app.methodNotAllowed(request.method, path);
      if (path.includes('\0') || path.split('/').includes('..')) {
        throw new DomainError('validation_failed', 'the path may not hold ".." segments or NUL characters', [
          { field: 'path', message: 'must not contain ".." or NUL' },
        ]);
      }
      if (isApiRequest(request, path) && isFromAnotherOrigin(request.headers)) {
        throw forbidden('requests from other origins are refused');
      }
    });
  },
  { name: 'request-guards', dependencies: ['method-not-allowed'] },
);
