import { warmWalCheckpointer } from '../db/sqlite-connection';
import type { Workspace } from '../workspace/workspace';
import { VERSION } from '../version';
import { buildApp } from './app';
import type { LogDestination } from './logging';
import type { App } from '../http/route-types';

export interface ServerOptions {
  workspace: Workspace;
  port: number;
  host: string;
  allowHosts?: readonly string[];
  trustProxy?: boolean;
  rendererDir?: string | null;
  log?: LogDestination;
}

export interface RunningServer {
  app: App;
  url: string;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const app = await buildApp({
    db: options.workspace.db,
    version: VERSION,
    dataDir: options.workspace.dataDir,
    log: options.log,
    allowHosts: options.allowHosts,
    trustProxy: options.trustProxy,
    rendererDir: options.rendererDir,
  });
  await app.listen({ port: options.port, host: options.host });
  warmWalCheckpointer(options.workspace.db);
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  return {
    app,
    url: `http://${host}:${port}`,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await options.workspace.close();
      })()),
  };
}
