import { isDeepStrictEqual } from 'node:util';
import { startBare } from './lib/bare-child';
import { formatCount, seconds } from './lib/format';
import { sequentialGets, type LatencyRun } from './lib/latency';
import { result } from './lib/result';
import { runCommand } from './lib/run-command';
import { BIN, childEnv, ROOT, startServe } from './lib/serve-child';
import { defineBenchmark, type BenchContext, type Result } from './lib/types';

const NAME = 'list';
const SCANS = { full: 1_000_000, quick: 50_000 } as const;
const REQUESTS = {
  full: { warmup: 20, measured: 200, budgetMs: 30_000 },
  quick: { warmup: 5, measured: 20, budgetMs: 30_000 },
} as const;
const SEED = 3;
const NOW = '2026-11-20T12:00:00Z';
/** Seven days before NOW: about a week's worth of a 90-day demo. */
const SINCE = '2026-11-13T12:00:00Z';
/** Among the demo's most used tools, in every organization's mix. */
const TOOL = 'ChatGPT';
/** The deep page sits at 90 % of the store: 900,000 of a million. */
const DEEP_FRACTION = 0.9;
const FILTERED_P99_TARGET_MS = 10;
const BASELINE = 'bare SQL';

interface Query {
  key: string;
  label: string;
  path: string;
}

function queries(scans: number): Query[] {
  const offset = Math.round(scans * DEEP_FRACTION);
  return [
    { key: 'first', label: 'first page', path: '/v1/scans?limit=50' },
    { key: 'deep', label: `offset=${formatCount(offset)}`, path: `/v1/scans?limit=50&offset=${offset}` },
    {
      key: 'filtered',
      label: `since 7 days + tool=${TOOL}`,
      path: `/v1/scans?limit=50&since=${encodeURIComponent(SINCE)}&tool=${encodeURIComponent(TOOL)}`,
    },
  ];
}

/** The demo store, built once per run (about a minute for a million scans). */
function demoDataDir(context: BenchContext, scans: number): Promise<string> {
  return context.memo(`list:demo:${scans}`, async () => {
    const dataDir = context.scratch.tempDir('list');
    context.log(`demo --scans ${formatCount(scans)} --seed ${SEED} --now ${NOW} (ends with ANALYZE)`);
    const run = await runCommand(
      context.scratch,
      process.execPath,
      [BIN, 'demo', '--data-dir', dataDir, '--scans', String(scans), '--seed', String(SEED), '--now', NOW],
      { cwd: ROOT, env: childEnv(), stdoutFile: '/dev/null' },
    );
    context.log(`  built in ${seconds(run.wallMs).toFixed(1)} s`);
    return dataDir;
  });
}

type Measured = Map<string, LatencyRun>;

async function measureAll(
  server: { url: string; token: string; stop(): Promise<void> },
  list: readonly Query[],
  counts: { warmup: number; measured: number; budgetMs: number },
): Promise<Measured> {
  const measured: Measured = new Map();
  try {
    for (const query of list) {
      measured.set(
        query.key,
        await sequentialGets(
          `${server.url}${query.path}`,
          server.token,
          counts.warmup,
          counts.measured,
          counts.budgetMs,
        ),
      );
    }
  } finally {
    await server.stop();
  }
  return measured;
}

export default defineBenchmark({
  name: NAME,
  description:
    'GET /v1/scans?limit=50 latency on a demo store (first page, deep offset, since+tool), sequential, against bare prepared SQL',
  async run(context) {
    const scans = context.quick ? SCANS.quick : SCANS.full;
    const counts = context.quick ? REQUESTS.quick : REQUESTS.full;
    const list = queries(scans);
    const dataDir = await demoDataDir(context, scans);

    context.log(`serve: ${counts.measured} sequential requests per query after ${counts.warmup} warm-ups`);
    const serve = await measureAll(await startServe(context.scratch, dataDir), list, counts);
    context.log(`${BASELINE}: the same`);
    const bare = await measureAll(await startBare(context.scratch, 'bare-list-server.ts', dataDir), list, counts);

    const rows: Result[] = [];
    for (const query of list) {
      const ours = serve.get(query.key)!;
      const theirs = bare.get(query.key)!;
      // Equal answers or the comparison means nothing: same page, same total, same fields.
      if (!isDeepStrictEqual(JSON.parse(ours.lastBody), JSON.parse(theirs.lastBody))) {
        throw new Error(`${query.path}: serve and ${BASELINE} answered differently`);
      }
      const { total } = JSON.parse(ours.lastBody) as { total: number };
      const label = `list ${formatCount(scans)} scans: ${query.label}`;
      const note = `sequential on one kept-alive connection after ${counts.warmup} warm-ups: serve ${ours.samples} requests, ${BASELINE} ${theirs.samples} (at most ${counts.measured}, ${seconds(counts.budgetMs)} s); total ${formatCount(total)}`;
      const target =
        query.key === 'filtered' ? { kind: 'max' as const, limit: FILTERED_P99_TARGET_MS, unit: 'ms' } : null;
      rows.push(
        result({
          benchmark: NAME,
          label: `${label} p50`,
          metric: 'ms',
          value: ours.p50,
          baseline: { label: `${BASELINE} p50`, value: theirs.p50 },
          note,
        }),
        result({
          benchmark: NAME,
          label: `${label} p99`,
          metric: 'ms',
          value: ours.p99,
          baseline: { label: `${BASELINE} p99`, value: theirs.p99 },
          target,
          note,
        }),
      );
    }
    return rows;
  },
});
