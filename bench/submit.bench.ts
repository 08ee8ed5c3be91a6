import { startBare } from './lib/bare-child';
import { formatCount } from './lib/format';
import { result } from './lib/result';
import { startServe } from './lib/serve-child';
import { CONNECTIONS, load, TIMELINE_ENTRIES, WARMUP_S, type Load } from './lib/submit-load';
import { defineBenchmark, type BenchContext } from './lib/types';

const NAME = 'submit';
/** Measured seconds: [full run, --quick]. */
const DURATION_S = { full: 10, quick: 2 } as const;
const TARGET_RATIO = 0.6;
const BASELINE = 'bare node:http + better-sqlite3';
/** Issue 14: against the floor of the work (bench/lib/lean-submit-server.ts). */
const LEAN_TARGET_RATIO = 0.8;
const LEAN = 'lean node:http, 2 tables, no triggers';
const SCRIPTS = { bare: 'bare-submit-server.ts', lean: 'lean-submit-server.ts' } as const;

/** A fresh data dir per server, so that neither writes into an index the other has grown. */
async function measure(context: BenchContext, kind: 'serve' | 'bare' | 'lean', durationS: number): Promise<Load> {
  const dataDir = context.scratch.tempDir(`submit-${kind}`);
  try {
    const server =
      kind === 'serve'
        ? await startServe(context.scratch, dataDir)
        : await startBare(context.scratch, SCRIPTS[kind], dataDir);
    try {
      return await load(server.url, server.token, durationS);
    } finally {
      await server.stop();
    }
  } finally {
    await context.scratch.removeDir(dataDir);
  }
}

export default defineBenchmark({
  name: NAME,
  description: `POST /v1/scans (${TIMELINE_ENTRIES}-entry timelines) from ${CONNECTIONS} connections with autocannon, against a bare node:http + better-sqlite3 server`,
  async run(context) {
    const durationS = context.quick ? DURATION_S.quick : DURATION_S.full;
    context.log(`serve: ${durationS} s of submissions from ${CONNECTIONS} connections`);
    const serve = await measure(context, 'serve', durationS);
    context.log(`${BASELINE}: the same`);
    const bare = await measure(context, 'bare', durationS);
    context.log(`${LEAN}: the same`);
    const lean = await measure(context, 'lean', durationS);
    const label = `submit ${TIMELINE_ENTRIES}-entry scans, ${CONNECTIONS} connections`;
    const note = `${durationS} s each after ${WARMUP_S} s of warm-up; serve stored ${formatCount(serve.completed)} scans, the baseline ${formatCount(bare.completed)}, the lean one ${formatCount(lean.completed)}`;
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
        note: 'autocannon latency histogram (ms, integer resolution)',
      }),
    ];
  },
});
