import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import helmet, { type HelmetOptions } from 'helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { ErrorBodySchema } from '../../shared/api/errors';
import { Health } from '../../shared/api/health';
import type { Db } from '../db/index';
import { evidenceRoutes } from '../evidence/evidence.routes';
import { identityRoutes } from '../identity/identity.routes';
import { importRoutes, type ImportRouteLimits } from '../evidence/import/imports.routes';
import { packageRoutes } from '../evidence/export/packages.routes';
import { organizationRoutes } from '../organizations/organizations.routes';
import { policyRoutes } from '../policies/policies.routes';
import { scanRoutes } from '../scans/scans.routes';
import { toolRoutes } from '../scans/tools.routes';
import { violationRoutes } from '../scans/violations.routes';
import { settingsRoutes } from '../settings/settings.routes';
import { eventRoutes } from '../live/events.routes';
import { statsRoutes } from '../stats/stats.routes';
import { teamRoutes } from '../teams/teams.routes';
import { userRoutes } from '../users/users.routes';
import { DomainError, forbidden } from '../http/domain-error';
import { authenticate } from './auth';
import { registerErrorHandler, sendError } from './errors';
import { checkRequestOrigin } from './guards';
import { HttpError } from './http-error';
import { registerJsonParser } from './json-body';
import { exchangeTokenForSession, sessionRoutes } from './session';
import { isFromAnotherOrigin } from './fetch-metadata';
import { isApiPath, normalizedPath } from './request-path';
import { loggerOptions, type LogDestination } from './logging';
import { openApiOptions } from './openapi';
import type { App } from '../http/route-types';
import { validatorCompiler } from '../http/validation';

export const JSON_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  db: Db;
  version: string;
  /** Where logs go; none by default (tests), stderr for `scandesk serve`. */
  log?: LogDestination;
  allowHosts?: readonly string[];
  /**
   * Behind a TLS-terminating proxy on this machine: believe its X-Forwarded-Proto/-Host/-For, so
   * that a browser reached over https gets a `Secure` session cookie and its https Origin is its
   * own (guards.ts). Only proxies on loopback are believed.
   */
  trustProxy?: boolean | undefined;
  /** The built renderer to serve at `/`; without it `/` explains how to build it. */
  rendererDir?: string | null;
  /** Evidence import limits (SPEC.md §8); the defaults, unless a test needs them small. */
  importLimits?: Partial<ImportRouteLimits>;
  /** The data directory, for the settings page (its token file); absent in some tests. */
  dataDir?: string;
}

const API_METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
// Node parses more methods (QUERY, PROPFIND, ...); none of them means anything here.
const KNOWN_METHODS = new Set<string>([...API_METHODS, 'OPTIONS']);

/**
 * Security headers on every response, from helmet: served pages may load only what this server
 * serves, nothing may frame them, and no response is sniffed. No HSTS and no
 * upgrade-insecure-requests: the server speaks plain HTTP on loopback (a team server's TLS proxy
 * sets its own). helmet's middleware is built once (@fastify/helmet built it anew per request,
 * parsing the policy each time).
 */
const SECURITY_HEADERS: HelmetOptions = {
  hsts: false,
  frameguard: { action: 'deny' },
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
};

/** Builds the whole HTTP application without listening: what tests inject into and `serve` starts. */
export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: options.trustProxy ? 'loopback' : false,
    logger: options.log ? loggerOptions(options.log) : false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // The router answers a malformed path (`/v1/scans/%zz`) or an over-long path parameter before
    // any hook runs, by default with its own body and a 414 the contract lacks (SPEC.md §3).
    frameworkErrors: (error, _request, reply) => {
      const field = { field: 'path', message: error.message };
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'a path parameter is too long'
          : 'the path is not validly percent-encoded';
      return sendError(reply, new DomainError('validation_failed', message, [field]));
    },
  } satisfies FastifyServerOptions).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  const securityHeaders = helmet(SECURITY_HEADERS);
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  await app.register(fastifyCookie);
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandler(app);
  // Only JSON bodies are accepted on the API; anything else is a 415.
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);

  // A second router holding only the API's routes answers "does this path exist with another
  // method?" for 405s; the renderer's catch-all must not count.
  const apiRoutes = FindMyWay();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1') && route.url !== '/healthz') return;
    for (const method of [route.method].flat() as HTTPMethod[]) {
      if (!apiRoutes.hasRoute(method, route.url)) apiRoutes.on(method, route.url, () => undefined);
    }
    route.schema = {
      ...route.schema,
      response: { ...(route.schema?.response as object), '4xx': ErrorBodySchema, '5xx': ErrorBodySchema },
    };
  });

  // Read once it listens: address() is a system call, and was a twentieth of a submit's CPU.
  let listeningPort: number | null = null;
  app.server.once('listening', () => {
    const address = app.server.address();
    listeningPort = address && typeof address === 'object' ? address.port : null;
  });
  const port = (): number | null => listeningPort;
  app.addHook('onRequest', async (request, reply) => {
    checkRequestOrigin(request, {
      allowHosts: options.allowHosts ?? [],
      port,
      trustProxy: options.trustProxy === true,
    });
    const path = normalizedPath(request.url);
    if (!KNOWN_METHODS.has(request.method)) throw methodNotAllowed(request.method, path);
    if (path.includes('\0') || path.split('/').includes('..')) {
      throw new DomainError('validation_failed', 'the path may not hold ".." segments or NUL characters', [
        { field: 'path', message: 'must not contain ".." or NUL' },
      ]);
    }
    // The decoded path, as the router sees it, and the route it matched decide, never the raw
    // target; and before any body is read.
    const route = request.routeOptions.url;
    const api =
      (isApiPath(path) || (route !== undefined && isApiPath(route))) && request.routeOptions.config?.public !== true;
    if (api) {
      if (isFromAnotherOrigin(request.headers)) throw forbidden('requests from other origins are refused');
      Object.assign(request, await authenticate(options.db, request, port()));
      reply.header('Cache-Control', 'no-store');
    } else if (await exchangeTokenForSession(options.db, request, reply, port())) {
      return reply;
    }
  });

  const methodNotAllowed = (method: string, path: string): HttpError => {
    const allowed = isApiPath(path) ? API_METHODS.filter((each) => apiRoutes.find(each, path)) : ['GET', 'HEAD'];
    return new HttpError('method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(', ')}`, [], {
      Allow: allowed.join(', '),
    });
  };

  const servesRenderer = Boolean(options.rendererDir && existsSync(join(options.rendererDir, 'index.html')));
  app.setNotFoundHandler(async (request, reply) => {
    const path = normalizedPath(request.url);
    if (API_METHODS.some((method) => apiRoutes.find(method, path))) {
      return sendError(reply, methodNotAllowed(request.method, path));
    }
    // The viewer routes in the browser: a deep link such as /scans/scan_… is its index.html.
    // A missing file (its name has an extension) stays a 404 rather than HTML posing as a script.
    const isPage = !/\.[a-z0-9]+$/i.test(path);
    if (servesRenderer && isPage && !isApiPath(path) && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return sendError(reply, new DomainError('not_found', `no route ${request.method} ${path}`));
  });

  await app.register(fastifySwagger, openApiOptions(options.version));

  app.get(
    '/healthz',
    { schema: { tags: ['health'], summary: 'Liveness', security: [], response: { 200: Health } } },
    async () => ({
      ok: true,
    }),
  );
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const deps = { db: options.db };
  await app.register(userRoutes, { ...deps, dataDir: options.dataDir });
  await app.register(sessionRoutes, { ...deps, port });
  await app.register(organizationRoutes, deps);
  await app.register(teamRoutes, deps);
  await app.register(policyRoutes, deps);
  await app.register(scanRoutes, deps);
  await app.register(toolRoutes, deps);
  await app.register(violationRoutes, deps);
  await app.register(evidenceRoutes, deps);
  await app.register(packageRoutes, deps);
  await app.register(importRoutes, { ...deps, limits: options.importLimits });
  await app.register(statsRoutes, deps);
  await app.register(eventRoutes, deps);
  await app.register(settingsRoutes, { ...deps, dataDir: options.dataDir, version: options.version });
  await app.register(identityRoutes, { dataDir: options.dataDir });

  await registerRenderer(app, servesRenderer ? options.rendererDir! : null);
  return app;
}

async function registerRenderer(app: App, rendererDir: string | null): Promise<void> {
  if (rendererDir) {
    await app.register(fastifyStatic, { root: rendererDir, prefix: '/', index: 'index.html' });
    return;
  }
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><meta charset="utf-8"><title>Scandesk</title>' +
          '<p>The Scandesk viewer has not been built. Run <code>npm run build</code>, then restart the server. ' +
          'The API is at <code>/v1</code>.</p>',
      ),
  );
}
