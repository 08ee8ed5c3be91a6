import { warmWalCheckpointer } from '../db/index';
import type { Workspace } from '../workspace/workspace';
import { VERSION } from '../version';
import { buildApp } from './app';
import type { LogDestination } from './logging';
import type { App } from '../http/route-types';
import type { ImportRouteLimits } from '../evidence/import/import-limits';
import { sweepStagedTimelines } from '../evidence/import/staged-timelines.repository';
import { startBackgroundSync } from '../sync/background/background-sync';

/**
 * How long a client may take to send a request. Node's defaults are off under Fastify (a request
 * could take forever); an upload that pauses is ended sooner by the import route's idle limit.
 */
export interface RequestTimeouts {
  /** The request line and headers. */
  headersMs: number;
  /** The whole request, body included: 512 MiB at about 1 MB/s. */
  requestMs: number;
  /** How often Node looks for requests past either limit: they end up to this much later. */
  checkEveryMs: number;
}

export const DEFAULT_REQUEST_TIMEOUTS: RequestTimeouts = {
  headersMs: 30_000,
  requestMs: 10 * 60_000,
  checkEveryMs: 5_000,
};

export interface ServerOptions {
  workspace: Workspace;
  port: number;
  host: string;
  allowHosts?: readonly string[];
  trustProxy?: boolean;
  rendererDir?: string | null;
  log?: LogDestination;
  /** The defaults, unless a test needs them short. */
  timeouts?: Partial<RequestTimeouts>;
  importLimits?: Partial<ImportRouteLimits>;
  /**
   * Sync the remotes that have background sync on while the server runs (`serve` and the desktop
   * app); off by default, so that a test's syncs are only the ones it asks for.
   */
  backgroundSync?: boolean;
}

export interface RunningServer {
  app: App;
  url: string;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
  /** The network came back: background sync tries the remotes it could not reach now (none without it). */
  nudgeSync(): void;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  // What imports cut short by a crash left staged (invisible, but taking space).
  await sweepStagedTimelines(options.workspace.db);
  const app = await buildApp({
    db: options.workspace.db,
    version: VERSION,
    dataDir: options.workspace.dataDir,
    log: options.log,
    allowHosts: options.allowHosts,
    trustProxy: options.trustProxy,
    rendererDir: options.rendererDir,
    importLimits: options.importLimits,
  });
  const timeouts = { ...DEFAULT_REQUEST_TIMEOUTS, ...options.timeouts };
  // Read by Node when the server starts listening, so set before. The interval is a constructor
  // option that Node keeps as a property; its types only name the option.
  const server = app.server as typeof app.server & { connectionsCheckingInterval: number };
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.connectionsCheckingInterval = timeouts.checkEveryMs;
  await app.listen({ port: options.port, host: options.host });
  warmWalCheckpointer(options.workspace.db);
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const background = options.backgroundSync
    ? startBackgroundSync({ db: options.workspace.db, dataDir: options.workspace.dataDir, log: app.log })
    : undefined;
  let closing: Promise<void> | undefined;
  return {
    app,
    url: `http://${host}:${port}`,
    nudgeSync: () => background?.nudge(),
    close: () =>
      (closing ??= (async () => {
        // Nothing new starts; a background run going on is stopped with the store's other runs.
        background?.stop();
        await app.close();
        await options.workspace.close();
      })()),
  };
}
