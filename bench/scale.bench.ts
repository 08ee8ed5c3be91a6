import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { withConnection } from '../test/fixtures/postgres-cluster';
import { CpuSampler } from './lib/cpu-time';
import { demoStore, DEMO_NOW, type DemoStore } from './lib/demo-store';
import { formatCount, seconds } from './lib/format';
import { getsBesideMachine, MACHINE_BASELINE, type MachineRun } from './lib/machine-tail';
import { MB } from './lib/memory';
import { result } from './lib/result';
import { startServe } from './lib/serve-child';
import { defineBenchmark, type BenchContext, type Result } from './lib/types';

const NAME = 'scale';
const SCANS = { full: 1_000_000, quick: 20_000 } as const;
const REQUESTS = {
  full: { warmup: 10, measured: 200, budgetMs: 20_000 },
  quick: { warmup: 3, measured: 20, budgetMs: 10_000 },
} as const;
const LIST_P99_MS = 10;
const STATS_P99_MS = 100;
/** A page in tokens order walks that index past the scans it drops: no list target, but no seconds. */
const TOKENS_ORDER_P99_MS = 100;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const NOW = Date.parse(DEMO_NOW);
/** The overview's 90-day preset at NOW: from UTC midnight 90 days back to NOW rounded up to the hour. */
const UNTIL = Math.ceil(NOW / HOUR_MS) * HOUR_MS;
const SINCE_90D = Math.floor((UNTIL - 90 * DAY_MS) / DAY_MS) * DAY_MS;
const SINCE_7D = NOW - 7 * DAY_MS;
/** The overview's 7-day preset: hour buckets, from an hour 7 days before UNTIL. */
const SINCE_7D_HOURS = UNTIL - 7 * DAY_MS;
const TOOL = 'ChatGPT';

interface Query {
  label: string;
  path: string;
  limitMs: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const search = (params: Record<string, string>): string => new URLSearchParams(params).toString();

/** The list's pages of the `list` benchmark and the requests the viewer's overview sends for 90 and 7 days. */
const QUERIES: readonly Query[] = [
  { label: 'list first page', path: '/v1/scans?limit=50', limitMs: LIST_P99_MS },
  {
    label: `list since 7 days + tool=${TOOL}`,
    path: `/v1/scans?${search({ limit: '50', since: iso(SINCE_7D), tool: TOOL })}`,
    limitMs: LIST_P99_MS,
  },
  // A status or violations filter over a range: flagged scans only (a sum of their rollups), and
  // what every clean scan matches (every scan less the flagged ones that miss it). Counted over
  // the scans they had taken 0.3–4.3 s at 10M.
  {
    label: 'list since 90 days + status=failed',
    path: `/v1/scans?${search({ limit: '50', since: iso(NOW - 90 * DAY_MS), status: 'failed' })}`,
    limitMs: LIST_P99_MS,
  },
  {
    label: 'list since 7 days + has_violations=false',
    path: `/v1/scans?${search({ limit: '50', since: iso(SINCE_7D), has_violations: 'false' })}`,
    limitMs: LIST_P99_MS,
  },
  // Filters the rollups do not index, which had read every scan at 10M: seconds to a minute.
  { label: 'list source=imported', path: '/v1/scans?limit=50&source=imported', limitMs: LIST_P99_MS },
  {
    label: `list by tokens + tool=${TOOL}`,
    path: `/v1/scans?${search({ limit: '50', sort: '-tokens', tool: TOOL })}`,
    limitMs: TOKENS_ORDER_P99_MS,
  },
  ...(['tool', 'action'] as const).map((group) => ({
    label: `overview 90 days: tokens by ${group}`,
    path: `/v1/stats/tokens?${search({ since: iso(SINCE_90D), until: iso(UNTIL), bucket: 'day', group_by: group })}`,
    limitMs: STATS_P99_MS,
  })),
  // The viewer asks for the tools in the range's buckets (hours up to 7 days) and for the
  // actions, whose chart draws only totals, in days (use-overview-stats.ts).
  ...(
    [
      ['tool', 'hour'],
      ['action', 'day'],
    ] as const
  ).map(([group, bucket]) => ({
    label: `overview 7 days: tokens by ${group}, ${bucket} buckets`,
    path: `/v1/stats/tokens?${search({ since: iso(SINCE_7D_HOURS), until: iso(UNTIL), bucket, group_by: group })}`,
    limitMs: STATS_P99_MS,
  })),
  {
    label: 'overview 90 days: violations',
    path: `/v1/stats/violations?${search({ since: iso(SINCE_90D), until: iso(UNTIL) })}`,
    limitMs: STATS_P99_MS,
  },
  { label: 'overview: origins', path: '/v1/stats/origins', limitMs: STATS_P99_MS },
];

/** Bytes the store takes on disk: the SQLite file with its WAL, or the PostgreSQL database. */
async function storeBytes(store: DemoStore): Promise<number> {
  if (!store.database) {
    return readdirSync(store.dataDir)
      .filter((file) => file.startsWith('scandesk.db'))
      .reduce((sum, file) => sum + statSync(join(store.dataDir, file)).size, 0);
  }
  const { rows } = await withConnection(store.database, (client) =>
    client.query<{ size: string }>('SELECT pg_database_size(current_database()) AS size'),
  );
  return Number(rows[0]!.size);
}

interface Measured extends MachineRun {
  /** CPU ms per request of the server and its PostgreSQL backends, warm-ups included; null without /proc. */
  cpuMs: number | null;
}

async function measure(context: BenchContext, store: DemoStore): Promise<Map<Query, Measured>> {
  const counts = context.quick ? REQUESTS.quick : REQUESTS.full;
  const server = await startServe(context.scratch, store.dataDir, store.database);
  const database = store.database ? new URL(store.database).pathname.slice(1) : undefined;
  const measured = new Map<Query, Measured>();
  try {
    for (const query of QUERIES) {
      context.log(`  ${query.label}`);
      // CPU time is what the load of a shared machine distorts least: the server's, and that of
      // the backends serving its database (their titles name it).
      const cpu = new CpuSampler(
        (command, pid) => pid === server.pid || (database !== undefined && command.includes(` ${database} `)),
      );
      const run = await getsBesideMachine(
        `${server.url}${query.path}`,
        server.token,
        counts.warmup,
        counts.measured,
        counts.budgetMs,
      );
      const seconds = cpu.stop();
      measured.set(query, {
        ...run,
        cpuMs: seconds === null ? null : (seconds * 1000) / (run.samples + counts.warmup),
      });
    }
  } finally {
    await server.stop();
  }
  return measured;
}

export default defineBenchmark({
  name: NAME,
  description:
    'a demo store of --size scans (default 1,000,000): its build, disk per scan, then list pages and the 90-day and 7-day overview stats p99 from a serve child',
  databases: ['sqlite', 'postgres'],
  async run(context) {
    const scans = context.size ?? (context.quick ? SCANS.quick : SCANS.full);
    const size = formatCount(scans);
    const store = await demoStore(context, NAME, scans);
    const rows: Result[] = [];
    const on = context.database === 'postgres' ? 'PostgreSQL' : 'SQLite';
    if (store.built) {
      rows.push(
        result({
          benchmark: NAME,
          label: `${on} demo ${size} scans`,
          metric: 's',
          value: seconds(store.built.wallMs),
          note: `${store.built.summary} (wall time includes process start)`,
        }),
        result({
          benchmark: NAME,
          label: `${on} demo ${size} scans: peak memory`,
          metric: 'MB',
          value: store.built.peakRss / MB,
          note: `whole process (${store.built.memoryMethod})`,
        }),
      );
    }
    const bytes = await storeBytes(store);
    rows.push(
      result({
        benchmark: NAME,
        label: `${on} ${size} scans: disk per scan`,
        metric: 'bytes',
        value: bytes / scans,
        note: `${(bytes / MB / 1024).toFixed(2)} GB in all (${store.database ? 'pg_database_size' : 'scandesk.db and its -wal'}), timelines and violations included`,
      }),
    );

    const counts = context.quick ? REQUESTS.quick : REQUESTS.full;
    const measured = await measure(context, store);
    for (const [query, run] of measured) {
      rows.push(
        result({
          benchmark: NAME,
          label: `${on} ${size} scans: ${query.label} p99`,
          metric: 'ms',
          value: run.p99,
          baseline: { label: MACHINE_BASELINE, value: run.machineP99 },
          target: { kind: 'max', limit: query.limitMs, unit: 'ms' },
          note: `p50 ${run.p50.toFixed(2)} ms; CPU ${run.cpuMs === null ? '?' : run.cpuMs.toFixed(2)} ms per request (server${store.database ? ' and its backends' : ''}); ${run.samples} sequential requests (at most ${counts.measured}, ${seconds(counts.budgetMs)} s) after ${counts.warmup} warm-ups; GET ${query.path}`,
        }),
      );
    }
    return rows;
  },
});
