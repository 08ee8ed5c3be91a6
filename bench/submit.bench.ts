import { startBare } from './lib/bare-child';
import { formatCount } from './lib/format';
import { result } from './lib/result';
import { startServe } from './lib/serve-child';
import { CONNECTIONS, measureLoad, TIMELINE_ENTRIES, warmUp, WARMUP_S, type Load } from './lib/submit-load';
import { measureInTurns, type Contender } from './lib/turns';
import { defineBenchmark, type BenchContext } from './lib/types';

const NAME = 'submit';
/** Measured rounds and seconds per server per round: [full run, --quick]. */
const ROUNDS = { full: 5, quick: 1 } as const;
const ROUND_S = { full: 2, quick: 2 } as const;
const TARGET_RATIO = 0.6;
const BASELINE = 'bare node:http + better-sqlite3';
/** Against the floor of the work (bench/lib/lean-submit-server.ts). */
const LEAN_TARGET_RATIO = 0.8;
const LEAN = 'lean node:http, 2 tables, no triggers';
const SCRIPTS = { bare: 'bare-submit-server.ts', lean: 'lean-submit-server.ts' } as const;
const KINDS = ['serve', 'bare', 'lean'] as const;
type Kind = (typeof KINDS)[number];

/**
 * The three servers side by side, each on a fresh data dir of its own (so that none writes into
 * an index another has grown), warmed up, then loaded in turns (see measureInTurns).
 */
async function measureServers(
  context: BenchContext,
  rounds: number,
  roundS: number,
  warmupS: number,
): Promise<Record<Kind, Load>> {
  const servers: (Contender<Kind> & { stop(): Promise<void> })[] = [];
  const dataDirs: string[] = [];
  try {
    for (const kind of KINDS) {
      const dataDir = context.scratch.tempDir(`submit-${kind}`);
      dataDirs.push(dataDir);
      const server =
        kind === 'serve'
          ? await startServe(context.scratch, dataDir)
          : await startBare(context.scratch, SCRIPTS[kind], dataDir);
      servers.push({ kind, measure: (seconds) => measureLoad(server, seconds), stop: () => server.stop() });
      await warmUp(server, CONNECTIONS, warmupS);
    }
    return await measureInTurns(servers, rounds, roundS);
  } finally {
    for (const server of servers) await server.stop();
    for (const dataDir of dataDirs) await context.scratch.removeDir(dataDir);
  }
}

export default defineBenchmark({
  name: NAME,
  description: `POST /v1/scans (${TIMELINE_ENTRIES}-entry timelines) from ${CONNECTIONS} connections with autocannon, against a bare node:http + better-sqlite3 server`,
  async run(context) {
    const rounds = context.quick ? ROUNDS.quick : ROUNDS.full;
    const roundS = context.quick ? ROUND_S.quick : ROUND_S.full;
    // --quick checks that the harness works, not speed: a short warm-up does.
    const warmupS = context.quick ? 1 : WARMUP_S;
    context.log(
      `serve, ${BASELINE} and ${LEAN}: ${rounds} rounds of ${roundS} s each from ${CONNECTIONS} connections, in turns`,
    );
    const { serve, bare, lean } = await measureServers(context, rounds, roundS, warmupS);
    const label = `submit ${TIMELINE_ENTRIES}-entry scans, ${CONNECTIONS} connections`;
    const note = `${rounds} × ${roundS} s each, in turns, after ${warmupS} s of warm-up; serve stored ${formatCount(serve.completed)} scans, the baseline ${formatCount(bare.completed)}, the lean one ${formatCount(lean.completed)}`;
    return [
      result({
        benchmark: NAME,
        label,
        metric: 'req/s',
        value: serve.requestsPerSecond,
        baseline: { label: BASELINE, value: bare.requestsPerSecond },
        target: { kind: 'min', limit: TARGET_RATIO, unit: '× baseline', of: 'ratio' },
        note,
      }),
      result({
        benchmark: NAME,
        label: `${label}: against the lean floor`,
        metric: 'req/s',
        value: serve.requestsPerSecond,
        baseline: { label: LEAN, value: lean.requestsPerSecond },
        target: { kind: 'min', limit: LEAN_TARGET_RATIO, unit: '× baseline', of: 'ratio' },
        note: 'the same serve run; the floor has two tables, one list index, no rollups or triggers',
      }),
      result({
        benchmark: NAME,
        label: `${label}: p99 latency`,
        metric: 'ms',
        value: serve.p99,
        baseline: { label: BASELINE, value: bare.p99 },
        note: 'autocannon latency histogram (ms, integer resolution): the median of the rounds',
      }),
    ];
  },
});
