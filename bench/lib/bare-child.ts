/**
 * Starts a bare baseline server (bench/lib/bare-*-server.ts) in a child process, the way
 * startServe starts the real one: under tsx, on 127.0.0.1 port 0, tracked by the run's scratch
 * so that it is stopped whatever happens. Both sides then pay the same process and loader costs.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenFile } from '../../src/main/workspace/data-dir';
import { exited, type Scratch } from './scratch';
import { childEnv, ROOT, waitForListening } from './serve-child';

export interface BareChild {
  url: string;
  token: string;
  pid: number;
  stop(): Promise<void>;
}

/** `node --import tsx bench/lib/<script> DATA_DIR`; resolves once it prints `listening on URL`. */
export async function startBare(
  scratch: Scratch,
  script: string,
  dataDir: string,
  extraArgs: string[] = [],
): Promise<BareChild> {
  const child = scratch.track(
    spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'lib', script), dataDir, ...extraArgs], {
      cwd: ROOT,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const url = await waitForListening(child, script);
  return {
    url,
    // The server has opened (and so created) the workspace before it listens.
    token: readFileSync(tokenFile(dataDir), 'utf8').trim(),
    pid: child.pid!,
    async stop(): Promise<void> {
      await scratch.stop(child);
      await exited(child);
    },
  };
}
