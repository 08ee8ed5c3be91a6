/**
 * Real processes for the end-to-end suite: `scandesk serve` on a real socket (127.0.0.1, port 0)
 * and one-shot CLI runs. Every process started here is tracked; `cleanupProcesses()` (call it in
 * `afterAll`) kills whatever is still running and removes the temporary directories, so a failing
 * test never leaves a server behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseEnvFor, dropTestDatabases } from './test-database';

/** The repository root: where `package.json` and `bin/scandesk.js` live. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin', 'scandesk.js');

/** How the server is started: `npm run serve -- ARGS` or `node bin/scandesk.js serve ARGS`. */
export type Launcher = 'npm' | 'node';

/** Environment overrides; `undefined` removes a variable. */
export type EnvOverrides = Record<string, string | undefined>;

export interface ServeOptions {
  /** Default `node` (faster); `npm` runs the package script exactly as a user would. */
  launcher?: Launcher;
  /** Default: a fresh temporary directory, removed by `cleanupProcesses()`. */
  dataDir?: string;
  /** Default 0: a free port. */
  port?: number;
  /** More `serve` flags, e.g. `['--allow-host', 'scandesk.test']`. */
  args?: string[];
  env?: EnvOverrides;
  /** How long to wait for the `listening on` line. */
  startTimeoutMs?: number;
}

export interface ServeProcess {
  /** From the `listening on` line, e.g. `http://127.0.0.1:43127`. */
  url: string;
  port: number;
  dataDir: string;
  /** The content of `<dataDir>/token` right after start. */
  token: string;
  /** The spawned process: npm for the `npm` launcher, else the server itself. */
  process: ChildProcess;
  /** The pid of the `node bin/scandesk.js serve` process (a grandchild under npm). */
  serverPid: number;
  stdout(): string;
  stderr(): string;
  /** Signals the server and waits for the spawned process to exit; resolves its exit code. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: EnvOverrides;
  timeoutMs?: number;
  /** Default: the repository root. Commands that write files by default write them here. */
  cwd?: string;
}

/** Process groups of started servers: killed as a whole, which also catches an orphaned server. */
const groups = new Set<number>();
const liveChildren = new Set<ChildProcess>();
const tempDirs = new Set<string>();

// Last resort if the test process itself goes away: no server survives it.
process.on('exit', () => {
  for (const pid of groups) killGroup(pid, 'SIGKILL');
  for (const child of liveChildren) child.kill('SIGKILL');
});

/** A new empty temporary directory, removed by `cleanupProcesses()`. */
export function makeTempDir(prefix = 'scandesk-e2e-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/**
 * The environment of a child: ours without any `SCANDESK_*` variable (so the developer's own
 * settings never leak in), `SCANDESK_DATA_DIR` pointing at a directory that does not exist (so
 * nothing ever touches the real user-data folder), then the overrides. `SCANDESK_RENDERER_DIR` is
 * kept: it names the build under test, and a server a browser test starts must serve that build too.
 */
export function childEnv(overrides: EnvOverrides = {}): NodeJS.ProcessEnv {
  const merged: EnvOverrides = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith('SCANDESK_') || key === 'SCANDESK_RENDERER_DIR'),
    ),
    SCANDESK_DATA_DIR: join(tmpdir(), 'scandesk-e2e-no-such-dir'),
    NO_COLOR: '1',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid of the `node … scandesk.js serve` process among the descendants of `rootPid`. */
function findServerPid(rootPid: number): number | undefined {
  const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const rows = ps.stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3] ?? '' }));
  const descendants = new Set<number>([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (descendants.has(row.ppid) && !descendants.has(row.pid)) {
        descendants.add(row.pid);
        grew = true;
      }
    }
  }
  const server = rows.find(
    (row) =>
      row.pid !== rootPid &&
      descendants.has(row.pid) &&
      /^\S*node(\.exe)?\s/.test(row.args) &&
      row.args.includes('scandesk.js'),
  );
  return server?.pid;
}

function waitForExit(
  child: ChildProcess,
  timeoutMs: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'timeout'> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/**
 * Starts `scandesk serve` and resolves once it printed `listening on URL`. Rejects, with the
 * captured stderr, if the process exits first or the line does not come within the timeout.
 */
export async function startServe(options: ServeOptions = {}): Promise<ServeProcess> {
  const launcher = options.launcher ?? 'node';
  const dataDir = options.dataDir ?? makeTempDir();
  const serveArgs = ['--port', String(options.port ?? 0), '--data-dir', dataDir, ...(options.args ?? [])];
  const [command, args] =
    launcher === 'npm'
      ? ['npm', ['run', 'serve', '--', ...serveArgs]]
      : [process.execPath, [BIN, 'serve', ...serveArgs]];
  // Its own process group: a failing test can kill npm, sh and the server at once.
  const child = spawn(command, args, {
    cwd: ROOT,
    env: childEnv({ ...(await databaseEnvFor(dataDir)), ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not spawn ${command}`);
  groups.add(pid);
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));

  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  const timeoutMs = options.startTimeoutMs ?? 20_000;
  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      const check = (): void => {
        const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
        if (match?.[1]) finish(() => resolve(match[1] as string));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
        finish(() =>
          reject(new Error(`serve exited (code ${code}, signal ${signal}) before listening; stderr:\n${stderr}`)),
        );
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new Error(`serve did not print "listening on" within ${timeoutMs} ms; stderr:\n${stderr}`)),
          ),
        timeoutMs,
      );
      const finish = (then: () => void): void => {
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.off('exit', onExit);
        then();
      };
      child.stdout.on('data', check);
      child.once('exit', onExit);
      check();
    });
  } catch (error) {
    killGroup(pid, 'SIGKILL');
    await waitForExit(child, 5_000);
    throw error;
  }

  const serverPid = launcher === 'npm' ? findServerPid(pid) : pid;
  if (serverPid === undefined) {
    killGroup(pid, 'SIGKILL');
    throw new Error('npm started, but no `node bin/scandesk.js serve` process was found under it');
  }
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();

  return {
    url,
    port: Number(new URL(url).port),
    dataDir,
    token,
    process: child,
    serverPid,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM', stopTimeoutMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        // The server itself, not npm: npm passes a signal on to `sh -c`, which dies of it and
        // orphans the server. Under npm, the server's exit code becomes npm's.
        if (isRunning(serverPid)) process.kill(serverPid, signal);
      }
      const exit = await waitForExit(child, stopTimeoutMs);
      if (exit === 'timeout') {
        killGroup(pid, 'SIGKILL');
        await waitForExit(child, 5_000);
        throw new Error(`serve did not exit within ${stopTimeoutMs} ms of ${signal}; stderr:\n${stderr}`);
      }
      return exit.code;
    },
  };
}

/** Runs `node bin/scandesk.js ARGS` to completion. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  // Commands that open a store (demo, token --rotate) find it by --data-dir, as serve does.
  const dataDirAt = args.indexOf('--data-dir');
  const dataDir = dataDirAt === -1 ? undefined : args[dataDirAt + 1];
  const databaseEnv = dataDir === undefined ? {} : await databaseEnvFor(dataDir);
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: childEnv({ ...databaseEnv, ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timeoutMs = options.timeoutMs ?? 20_000;
  return new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`scandesk ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      liveChildren.delete(child);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      liveChildren.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The flags that point a client command at `server`, as the owner whose token it wrote. */
export function serverFlags(server: ServeProcess): string[] {
  return ['--url', server.url, '--token', server.token];
}

/** Runs the CLI pointed at `server`: a one-shot run with `args`, then serverFlags. */
export function cliAt(server: ServeProcess): (...args: string[]) => Promise<CliResult> {
  return (...args) => runCli([...args, ...serverFlags(server)]);
}

/** Kills every process still running from this file's helpers and removes the temporary directories. */
export async function cleanupProcesses(): Promise<void> {
  for (const pid of groups) killGroup(pid, 'SIGKILL');
  groups.clear();
  for (const child of liveChildren) child.kill('SIGKILL');
  const deadline = Date.now() + 5_000;
  while (liveChildren.size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
  await dropTestDatabases();
}
