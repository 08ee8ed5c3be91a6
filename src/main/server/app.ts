import fastifySwagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Server } from 'node:http';
import Fastify, { type FastifyHttpOptions } from 'fastify';
import { Health } from '../../shared/api/health';
import type { Db } from '../db/index';
import { evidenceRoutes } from '../evidence/evidence.routes';
import { identityRoutes } from '../identity/identity.routes';
import type { ImportLimits, ImportRouteLimits } from '../evidence/import/import-limits';
import { importRoutes } from '../evidence/import/imports.routes';
import { packageRoutes } from '../evidence/export/packages.routes';
import { organizationRoutes } from '../organizations/organizations.routes';
import { policyRoutes } from '../policies/policies.routes';
import { scanRoutes } from '../scans/scans.routes';
import { toolRoutes } from '../scans/tools.routes';
import { violationRoutes } from '../scans/violations.routes';
import { settingsRoutes } from '../settings/settings.routes';
import { eventRoutes } from '../live/events.routes';
import { statsRoutes } from '../stats/stats.routes';
import { changeRoutes } from '../sync/changes/changes.routes';
import { syncScanRoutes } from '../sync/scans/sync-scans.routes';
import { digestRoutes } from '../sync/digest/digest.routes';
import { remoteRoutes } from '../sync/remotes/remotes.routes';
import type { RemoteTimeouts } from '../sync/client/remote-client';
import { syncRoutes } from '../sync/sync.routes';
import { teamRoutes } from '../teams/teams.routes';
import { userRoutes } from '../users/users.routes';
import { DomainError } from '../domain-error';
import { authentication } from './auth/authentication.plugin';
import { sessionRoutes } from './auth/session.routes';
import { registerErrorHandler, sendError } from './errors';
import { registerJsonParser } from './json-body';
import { loggerOptions, type LogDestination } from './logging';
import { methodNotAllowed } from './method-not-allowed/method-not-allowed.plugin';
import { openApiOptions } from './openapi';
import { requestGuards } from './request-guards/request-guards.plugin';
import { viewer } from './viewer/viewer.plugin';
import type { App } from '../http/route-types';
import { validatorCompiler } from '../http/validation';
import { lazySerializers } from '../http/lazy-serializers';

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
   * own (request-guards/origin.ts). Only proxies on loopback are believed.
   */
  trustProxy?: boolean | undefined;
  /** The built renderer to serve at `/`; without it `/` explains how to build it. */
  rendererDir?: string | null;
  /** Evidence import limits (docs/contract/limits.md#packages); the defaults, unless a test needs them small. */
  importLimits?: Partial<ImportRouteLimits>;
  /** The data directory, for the settings page (its token file); absent in some tests. */
  dataDir?: string;
  /** A sync's remote timeouts and package limits: the defaults, unless a test needs them small. */
  sync?: { timeouts?: Partial<RemoteTimeouts>; limits?: ImportLimits };
}

/** Builds the whole HTTP application without listening: what tests inject into and `serve` starts. */
export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: options.trustProxy ? 'loopback' : false,
    logger: options.log ? loggerOptions(options.log) : false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Node's default head limit, 16 KiB, is below a longest change-feed cursor with every
    // character of it escaped (docs/contract/limits.md#requests): such a request is answered 400
    // by the schema, not 431 by the parser.
    http: { maxHeaderSize: 64 * 1024 },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    // The router answers a malformed path (`/v1/scans/%zz`) or an over-long path parameter before
    // any hook runs, by default with its own body and a 414 the contract lacks (docs/contract/errors.md#codes).
    frameworkErrors: (error, _request, reply) => {
      const field = { field: 'path', message: error.message };
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'a path parameter is too long'
          : 'the path is not validly percent-encoded';
      return sendError(reply, new DomainError('validation_failed', message, [field]));
    },
  } satisfies FastifyHttpOptions<Server>).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandler(app);
  // Only JSON bodies are accepted on the API; anything else is a 415.
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);

  // Read once it listens: address() is a system call, and was a twentieth of a submit's CPU.
  let listeningPort: number | null = null;
  app.server.once('listening', () => {
    const address = app.server.address();
    listeningPort = address && typeof address === 'object' ? address.port : null;
  });
  const port = (): number | null => listeningPort;

  // The plugins, in this order because each relies on the ones before it (README.md follows a
  // request through them):
  // - method-not-allowed first: it must see every route as it is added, and the guards answer a
  //   method nothing here takes with its Allow list;
  // - request guards: security headers, Host and Origin, method, path and Fetch Metadata, before
  //   anyone is looked up or any body is read;
  // - authentication: the caller of every non-public API route, or a `?token=` exchanged for a
  //   session cookie, still before the body is read;
  // - the routes, each feature's own plugin (sign-in and sign-out are auth/session.routes.ts);
  // - the viewer last: its catch-all and the not-found handler take what no route took.
  await app.register(methodNotAllowed);
  await app.register(requestGuards, {
    allowHosts: options.allowHosts ?? [],
    port,
    trustProxy: options.trustProxy === true,
  });
  await app.register(authentication, { db: options.db, port });

  await app.register(fastifySwagger, openApiOptions(options.version, JSON_BODY_LIMIT));

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
  await app.register(changeRoutes, deps);
  await app.register(syncScanRoutes, deps);
  await app.register(digestRoutes, deps);
  await app.register(statsRoutes, deps);
  await app.register(eventRoutes, deps);
  await app.register(settingsRoutes, { ...deps, dataDir: options.dataDir, version: options.version });
  await app.register(identityRoutes, { dataDir: options.dataDir });
  await app.register(remoteRoutes, { ...deps, dataDir: options.dataDir });
  await app.register(syncRoutes, { ...deps, dataDir: options.dataDir, ...options.sync });

  await app.register(viewer, { rendererDir: options.rendererDir });
  return app;
}
