import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDemo } from '../src/main/demo/demo.service';
import { openWorkspace } from '../src/main/workspace/workspace';
import { startBare } from './lib/bare-child';
import { formatCount } from './lib/format';
import { sequentialGets } from './lib/latency';
import { result } from './lib/result';
import { startServe } from './lib/serve-child';
import { CONNECTIONS, load, TIMELINE_ENTRIES, type Load } from './lib/submit-load';
import { defineBenchmark, type BenchContext } from './lib/types';

const NAME = 'postgres';
const DURATION_S = { full: 10, quick: 2 } as const;
const DEMO_SCANS = { full: 1_000_000, quick: 5_000 } as const;
const BARE = 'bare node:http + pg';
const LIST_TARGET_MS = 10;
const NOW = Date.UTC(2026, 10, 20);

/** A migrated database with an owner, and a data dir holding its token. */
async function newStore(context: BenchContext, label: string) {
  const url = await context.storeFor(label);
  if (!url) throw new Error('the postgres benchmark runs with --database postgres only');
  const dataDir = context.scratch.tempDir(`pg-${label}`);
  const workspace = await openWorkspace(dataDir, { database: { kind: 'postgres', url } });
  await workspace.close();
  return { url, dataDir };
}

/** Submits through `servers` processes at once, the connections split between them. */
async function loadServers(context: BenchContext, servers: number, durationS: number) {
  const store = await newStore(context, `serve${servers}`);
  const children = [];
  for (let i = 0; i < servers; i++) {
    const dataDir = i === 0 ? store.dataDir : context.scratch.tempDir(`pg-serve-${i}`);
    if (i > 0) copyFileSync(join(store.dataDir, 'token'), join(dataDir, 'token'));
    children.push(await startServe(context.scratch, dataDir, store.url));
  }
  try {
    const loads = await Promise.all(
      children.map((child) => load(child.url, child.token, durationS, CONNECTIONS / servers)),
    );
    return {
      requestsPerSecond: loads.reduce((sum, one) => sum + one.requestsPerSecond, 0),
      p99: Math.max(...loads.map((one) => one.p99)),
      completed: loads.reduce((sum, one) => sum + one.completed, 0),
    } satisfies Load;
  } finally {
    for (const child of children) await child.stop();
  }
}

export default defineBenchmark({
  name: NAME,
  databases: ['postgres'],
  description: `the team server on a private PostgreSQL 15: submits through one and two processes against ${BARE}, the demo load, list latency`,
  async run(context) {
    const durationS = context.quick ? DURATION_S.quick : DURATION_S.full;
    context.log(`${BARE}: ${durationS} s of submissions from ${CONNECTIONS} connections`);
    const bareStore = await newStore(context, 'bare');
    const bareChild = await startBare(context.scratch, 'bare-pg-submit-server.ts', bareStore.dataDir, [bareStore.url]);
    const bare = await load(bareChild.url, bareChild.token, durationS).finally(() => bareChild.stop());
    context.log('serve, one process, then two on one database');
    const one = await loadServers(context, 1, durationS);
    const two = await loadServers(context, 2, durationS);
    const label = `submit ${TIMELINE_ENTRIES}-entry scans, ${CONNECTIONS} connections`;
    const baseline = { label: BARE, value: bare.requestsPerSecond };

    const scans = context.quick ? DEMO_SCANS.quick : DEMO_SCANS.full;
    context.log(`demo: ${formatCount(scans)} scans into PostgreSQL, then into SQLite`);
    const demoStore = await newStore(context, 'demo');
    const demo = await runDemo({
      dataDir: demoStore.dataDir,
      database: { kind: 'postgres', url: demoStore.url },
      scans,
      seed: 1,
      now: NOW,
    });
    const sqliteDemo = await runDemo({ dataDir: context.scratch.tempDir('sqlite-demo'), scans, seed: 1, now: NOW });

    context.log('list latency on the demo store');
    const server = await startServe(context.scratch, demoStore.dataDir, demoStore.url);
    const since = new Date(NOW - 7 * 86_400_000).toISOString();
    const firstPage = await sequentialGets(`${server.url}/v1/scans?limit=50`, server.token, 20, 300, 10_000);
    const filtered = await sequentialGets(
      `${server.url}/v1/scans?limit=50&since=${since}&tool=Cursor`,
      server.token,
      20,
      300,
      10_000,
    );
    await server.stop();

    return [
      result({
        benchmark: NAME,
        label: `${label}, one server process`,
        metric: 'req/s',
        value: one.requestsPerSecond,
        baseline,
        note: `${durationS} s; stored ${formatCount(one.completed)} scans (the baseline ${formatCount(bare.completed)}); p99 ${one.p99} ms`,
      }),
      result({
        benchmark: NAME,
        label: `${label}, two server processes`,
        metric: 'req/s',
        value: two.requestsPerSecond,
        baseline: { label: 'one server process', value: one.requestsPerSecond },
        target: { kind: 'min', limit: 1, unit: '× one process', of: 'ratio' },
        note: `${CONNECTIONS / 2} connections each; p99 ${two.p99} ms`,
      }),
      result({
        benchmark: NAME,
        label: `demo ${formatCount(scans)} scans into PostgreSQL`,
        metric: 's',
        value: demo.elapsedMs / 1000,
        baseline: { label: 'the same into SQLite', value: sqliteDemo.elapsedMs / 1000 },
        note: `${formatCount(demo.timelineEntries)} timeline entries, ${formatCount(demo.violations)} violations`,
      }),
      ...[
        { what: 'first page', run: firstPage },
        { what: 'since 7 days + tool', run: filtered },
      ].map(({ what, run }) =>
        result({
          benchmark: NAME,
          label: `list ${what} at ${formatCount(scans)} scans: p99`,
          metric: 'ms',
          value: run.p99,
          baseline: null,
          target: { kind: 'max', limit: LIST_TARGET_MS, unit: 'ms' },
          note: `${run.samples} sequential requests, p50 ${run.p50.toFixed(2)} ms`,
        }),
      ),
    ];
  },
});
