import { spawn } from 'node:child_process';
import { percentile } from './lib/latency';
import { result } from './lib/result';
import { exited, type Scratch } from './lib/scratch';
import { BIN, childEnv, ROOT, startServe, waitForListening } from './lib/serve-child';
import { defineBenchmark, type Result } from './lib/types';

const NAME = 'startup';
const RUNS = { full: 15, quick: 3 } as const;
/** What a person notices as a pause before the first line (issue 28's table). */
const TARGETS_S = { help: 0.15, list: 0.3, serve: 1.0 } as const;

const median = (samples: readonly number[]): number =>
  percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );

/** Wall time of `node ARGS` from spawn to exit, in ms; fails on a non-zero exit. */
async function timeNode(scratch: Scratch, args: readonly string[]): Promise<number> {
  const started = performance.now();
  const child = scratch.track(spawn(process.execPath, args, { cwd: ROOT, env: childEnv(), stdio: 'ignore' }));
  await exited(child);
  const wallMs = performance.now() - started;
  if (child.exitCode !== 0) throw new Error(`node ${args.join(' ')} exited with ${child.exitCode ?? child.signalCode}`);
  return wallMs;
}

/** Wall time of `scandesk serve` on a new, empty data dir until it prints "listening", in ms. */
async function timeServe(scratch: Scratch): Promise<number> {
  const dataDir = scratch.tempDir('startup-serve');
  try {
    const started = performance.now();
    const child = scratch.track(
      spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
        cwd: ROOT,
        env: childEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    await waitForListening(child, 'serve');
    const wallMs = performance.now() - started;
    await scratch.stop(child);
    return wallMs;
  } finally {
    await scratch.removeDir(dataDir);
  }
}

export default defineBenchmark({
  name: NAME,
  description:
    'wall time of `scandesk --help`, `scandesk scans list` against a running server and `scandesk serve` on an empty data dir until "listening"; median of N runs each, interleaved, against `node -e 0`',
  async run(context) {
    const runs = context.quick ? RUNS.quick : RUNS.full;
    const listDir = context.scratch.tempDir('startup-list');
    const server = await startServe(context.scratch, listDir);
    const listArgs = [BIN, 'scans', 'list', '--url', server.url, '--token', server.token];
    const times = { node: [] as number[], help: [] as number[], list: [] as number[], serve: [] as number[] };
    try {
      // Warm the file cache once, then measure the four commands in turns, so that a busy phase of
      // the machine weighs on all of them alike.
      await timeNode(context.scratch, [BIN, '--help']);
      await timeNode(context.scratch, listArgs);
      for (let round = 1; round <= runs; round += 1) {
        context.log(`round ${round}/${runs}`);
        times.node.push(await timeNode(context.scratch, ['-e', '0']));
        times.help.push(await timeNode(context.scratch, [BIN, '--help']));
        times.list.push(await timeNode(context.scratch, listArgs));
        times.serve.push(await timeServe(context.scratch));
      }
    } finally {
      await server.stop();
      await context.scratch.removeDir(listDir);
    }
    const baseline = { label: 'node -e 0', value: median(times.node) / 1000 };
    const row = (label: string, samples: number[], limit: number): Result =>
      result({
        benchmark: NAME,
        label,
        metric: 's',
        value: median(samples) / 1000,
        baseline,
        target: { kind: 'max', limit, unit: 's' },
        note: `median of ${runs}; min ${(Math.min(...samples) / 1000).toFixed(3)} s, max ${(Math.max(...samples) / 1000).toFixed(3)} s`,
      });
    return [
      row('scandesk --help', times.help, TARGETS_S.help),
      row('scandesk scans list (running server)', times.list, TARGETS_S.list),
      row('scandesk serve, empty data dir, until listening', times.serve, TARGETS_S.serve),
    ];
  },
});
