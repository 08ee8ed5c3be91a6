import { parseArgs } from 'node:util';
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  defaultDataDir,
  describeLocation,
  maskSecrets,
  openWorkspace,
  rendererDir,
  startServer,
  tokenFile,
} from '../../main/cli-core';
import { EXIT, UsageError } from '../usage-error';
import { DATABASE_OPTION, databaseFlag } from './database-flag';
import { writeErr, writeOut } from '../output';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`--port must be a number from 0 to 65535, not "${value}"`);
  return port;
}

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: String(DEFAULT_PORT) },
      host: { type: 'string', default: DEFAULT_HOST },
      'data-dir': { type: 'string' },
      'allow-host': { type: 'string', multiple: true, default: [] },
      'log-level': { type: 'string', default: 'info' },
      'trust-proxy': { type: 'boolean', default: false },
      ...DATABASE_OPTION,
    },
  });
  const port = parsePort(values.port);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const database = databaseFlag(values.database, values['database-password-file']);
  const store = database ? describeLocation(database) : dataDir;
  const workspace = await openWorkspace(dataDir, {
    database,
    initialToken: process.env.SCANDESK_TOKEN || undefined,
    onIdleError: (error) => writeErr(`database connection lost (${maskSecrets(error.message)}); reconnecting\n`),
    onStatementNamesOff: (error) =>
      writeErr(
        `database statements run unnamed from now on (${maskSecrets(error.message)}): is a pooler in transaction mode in between? (README, A team server on PostgreSQL)\n`,
      ),
    onUpgrade: (pending) =>
      writeErr(
        `upgrading the database in ${store} (${pending.length} migration${pending.length === 1 ? '' : 's'}; ` +
          'a large store takes a few seconds per million scans)\n',
      ),
  });
  if (workspace.createdToken) writeErr(`new data directory ${dataDir}; token written to ${tokenFile(dataDir)}\n`);

  const server = await startServer({
    workspace,
    port,
    host: values.host,
    allowHosts: values['allow-host'],
    trustProxy: values['trust-proxy'],
    rendererDir: rendererDir(),
    log: Object.assign(process.stderr, { level: values['log-level'] }),
    backgroundSync: true,
  }).catch(async (error: unknown) => {
    await workspace.close();
    throw error;
  });
  if (database) writeErr(`store: ${store}\n`);
  writeOut(`listening on ${server.url}\n`);

  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      writeErr(`${signal}: finishing requests and closing the database\n`);
      server.close().then(
        () => resolve(EXIT.ok),
        (error: unknown) => {
          writeErr(`error while stopping: ${String(error)}\n`);
          resolve(EXIT.failed);
        },
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    onParentGone(() => stop('SIGTERM'));
  });
}

/**
 * Under `npm run`, a SIGTERM sent to npm kills npm's `sh -c`, which does not pass it on and
 * leaves this process orphaned (re-parented). Treat the loss of the parent as the signal to stop.
 * Only under npm: a server someone started in the background with `&` must outlive its shell.
 */
function onParentGone(stop: () => void): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, 250);
  timer.unref();
}
