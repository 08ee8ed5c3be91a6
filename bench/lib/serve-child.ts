import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getJson } from './http';
import { procStatusBytes, resetPeak, RssSampler } from './memory';
import { exited, type Scratch } from './scratch';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin', 'scandesk.js');

/** Long enough for the start's garbage to be collected and the heap to settle. */
const SETTLE_MS = 1000;
const START_TIMEOUT_MS = 60_000;

/**
 * The environment of every child: ours without SCANDESK_* (a developer's own settings must not
 * leak in) and a data dir that does not exist, so nothing ever touches the real user-data folder.
 */
export function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('SCANDESK_')) env[key] = value;
  }
  env.SCANDESK_DATA_DIR = join(ROOT, 'bench', 'no-such-data-dir');
  env.NO_COLOR = '1';
  return env;
}

/** Resolves with the URL a child prints as `listening on URL`; rejects with its stderr if it exits or stalls. */
export function waitForListening(child: ChildProcess, name: string): Promise<string> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start in time: ${stderr}`)), START_TIMEOUT_MS);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening: ${stderr}`));
    });
    child.once('error', reject);
  });
}

export interface PeakMeasurement<T> {
  value: T;
  wallMs: number;
  /** RSS once started and idle, in bytes. */
  idleRss: number;
  /** Peak RSS during the operation, in bytes. */
  peakRss: number;
  /** How peakRss was obtained. */
  memoryMethod: string;
}

export interface ServeChild {
  url: string;
  token: string;
  pid: number;
  /**
   * Runs `operation` against the server and measures it: wall time, and the server's idle RSS
   * before and peak RSS during it, both read from /proc the same way.
   */
  measure<T>(operation: () => Promise<T>): Promise<PeakMeasurement<T>>;
  stop(): Promise<void>;
}

/** `node bin/scandesk.js serve --port 0 --data-dir DIR --log-level warn`, the real server, in a child; on `database` (a postgres:// URL) if given. */
export async function startServe(scratch: Scratch, dataDir: string, database?: string): Promise<ServeChild> {
  const child = scratch.track(
    spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
      cwd: ROOT,
      env: { ...childEnv(), ...(database ? { SCANDESK_DATABASE_URL: database } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const url = await waitForListening(child, 'serve');
  const pid = child.pid!;
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();

  return {
    url,
    token,
    pid,
    async measure<T>(operation: () => Promise<T>): Promise<PeakMeasurement<T>> {
      // One request first: whatever the first request allocates once is part of "idle".
      await getJson(`${url}/healthz`);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const idleRss = procStatusBytes(pid, 'VmRSS');
      if (idleRss === null) throw new Error('cannot read /proc/<pid>/status: peak memory needs Linux');
      const trustHwm = resetPeak(pid);
      const sampler = new RssSampler(pid);
      const started = performance.now();
      let value: T;
      try {
        value = await operation();
      } catch (error) {
        sampler.stop(false);
        throw error;
      }
      const wallMs = performance.now() - started;
      const { peak, method } = sampler.stop(trustHwm);
      return { value, wallMs, idleRss, peakRss: peak, memoryMethod: method };
    },
    async stop(): Promise<void> {
      await scratch.stop(child);
      await exited(child);
    },
  };
}
