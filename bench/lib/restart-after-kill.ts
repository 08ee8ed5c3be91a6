import { percentile } from './latency';
import type { Scratch } from './scratch';
import { startServe, type ServeChild } from './serve-child';

/** Submitters kept busy against the server when it is killed, so that it dies mid-write. */
const SUBMITTERS = 16;
/** How long the server is loaded before each kill. */
const LOAD_MS = 1000;

export interface RestartTimes {
  /** Milliseconds from spawning `serve` again until it printed "listening", one per kill, sorted. */
  times: number[];
  median: number;
}

/** Submits one scan after another until `stopped()` says so or the server goes away. */
async function submitLoop(server: ServeChild, stopped: () => boolean): Promise<void> {
  const body = JSON.stringify({
    tool: 'Claude Code',
    action: 'chat.completion',
    tokens: 30,
    timeline: [
      { timestamp: '2026-11-20T12:00:00.000Z', action: 'tool.call', tokens: 10 },
      { timestamp: '2026-11-20T12:00:01.500Z', action: 'file.read', tokens: 20 },
    ],
  });
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
  while (!stopped()) {
    try {
      await (await fetch(`${server.url}/v1/scans`, { method: 'POST', headers, body })).arrayBuffer();
    } catch {
      return;
    }
  }
}

/**
 * `kills` times: a `serve` on `dataDir` (and `database`, a postgres:// URL, if given) loaded by
 * submitters, killed with SIGKILL mid-load, and started again on the same store; the time of each
 * start after a kill, the one before the first kill not counted.
 */
export async function restartAfterKill(
  scratch: Scratch,
  dataDir: string,
  database: string | undefined,
  kills: number,
): Promise<RestartTimes> {
  const times: number[] = [];
  let server = await startServe(scratch, dataDir, database);
  try {
    for (let kill = 0; kill < kills; kill++) {
      let stopped = false;
      const running = server;
      const submitters = Array.from({ length: SUBMITTERS }, () => submitLoop(running, () => stopped));
      await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
      process.kill(running.pid, 'SIGKILL');
      stopped = true;
      await running.stop();
      await Promise.all(submitters);
      const started = performance.now();
      server = await startServe(scratch, dataDir, database);
      times.push(performance.now() - started);
    }
  } finally {
    await server.stop();
  }
  times.sort((a, b) => a - b);
  return { times, median: percentile(times, 50) };
}
