import autocannon from 'autocannon';
import { startBare } from './lib/bare-child';
import { formatCount } from './lib/format';
import { postJson } from './lib/http';
import { result } from './lib/result';
import { startServe } from './lib/serve-child';
import { defineBenchmark, type BenchContext } from './lib/types';

const NAME = 'submit';
const CONNECTIONS = 32;
const TIMELINE_ENTRIES = 10;
/** Measured seconds: [full run, --quick]. */
const DURATION_S = { full: 10, quick: 2 } as const;
// Unmeasured load first: JIT, the statement caches and SQLite's page cache warm up on both sides.
const WARMUP_S = 1;
const TARGET_RATIO = 0.6;
const BASELINE = 'bare node:http + better-sqlite3';

const ACTIONS = ['chat.completion', 'code.completion', 'tool.call', 'file.read', 'web.search'];

/** One submission with a 10-entry timeline; every request sends the same body (ids are the server's). */
function submission(): { tool: string; action: string; tokens: number; timeline: unknown[] } {
  const start = Date.UTC(2026, 10, 20, 12);
  const timeline = Array.from({ length: TIMELINE_ENTRIES }, (_, i) => ({
    timestamp: new Date(start + i * 1500).toISOString(),
    action: ACTIONS[i % ACTIONS.length]!,
    tokens: 100 + i * 37,
  }));
  const tokens = timeline.reduce((sum, entry) => sum + entry.tokens, 0);
  return { tool: 'Claude Code', action: 'chat.completion', tokens, timeline };
}

interface Load {
  requestsPerSecond: number;
  p99: number;
  completed: number;
}

/** Submits once (checked), warms up, then loads the server for `durationS` from 32 connections. */
async function load(url: string, token: string, durationS: number): Promise<Load> {
  const body = submission();
  const check = await postJson(`${url}/v1/scans`, token, body);
  if (check.status !== 201) throw new Error(`POST /v1/scans answered ${check.status}: ${check.body}`);
  const options = {
    url: `${url}/v1/scans`,
    connections: CONNECTIONS,
    method: 'POST' as const,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  await autocannon({ ...options, duration: WARMUP_S });
  const run = await autocannon({ ...options, duration: durationS });
  if (run.errors > 0 || run.non2xx > 0 || run['2xx'] === 0) {
    throw new Error(`${url}: ${run['2xx']} answered 2xx, ${run.non2xx} did not, ${run.errors} connection errors`);
  }
  return { requestsPerSecond: run['2xx'] / run.duration, p99: run.latency.p99, completed: run['2xx'] };
}

/** A fresh data dir per server, so that neither writes into an index the other has grown. */
async function measure(context: BenchContext, kind: 'serve' | 'bare', durationS: number): Promise<Load> {
  const dataDir = context.scratch.tempDir(`submit-${kind}`);
  try {
    const server =
      kind === 'serve'
        ? await startServe(context.scratch, dataDir)
        : await startBare(context.scratch, 'bare-submit-server.ts', dataDir);
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
    const label = `submit ${TIMELINE_ENTRIES}-entry scans, ${CONNECTIONS} connections`;
    const note = `${durationS} s each after ${WARMUP_S} s of warm-up; serve stored ${formatCount(serve.completed)} scans, the baseline ${formatCount(bare.completed)}`;
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
        label: `${label}: p99 latency`,
        metric: 'ms',
        value: serve.p99,
        baseline: { label: BASELINE, value: bare.p99 },
        note: 'autocannon latency histogram (ms, integer resolution)',
      }),
    ];
  },
});
