import { openDatabase } from '../src/main/db/open-database';
import { databaseFile } from '../src/main/workspace/data-dir';
import { groupEveryEntry } from './lib/bucket-baseline';
import { timelineDataDir, timelineSizes } from './lib/evidence-fixture';
import { formatCount } from './lib/format';
import { percentile, sequentialGets } from './lib/latency';
import { result } from './lib/result';
import { startServe } from './lib/serve-child';
import { defineBenchmark } from './lib/types';

const NAME = 'timeline-buckets';
const P99_TARGET_MS = 20;
const REQUESTS = { full: { warmup: 20, measured: 300 }, quick: { warmup: 5, measured: 100 } } as const;
const BASELINE_RUNS = 5;

/** A seeded generator: the same requests every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

export default defineBenchmark({
  name: NAME,
  databases: ['sqlite', 'postgres'],
  description:
    'GET /v1/scans/:id/evidence/timeline/buckets of the long timeline, any n ≤ 1000, whole and zoomed; baseline a GROUP BY over every entry',
  async run(context) {
    const entries = timelineSizes(context).large;
    const data = await timelineDataDir(context);
    const scanId = data.scans.get(entries)!;
    const location = data.database
      ? ({ kind: 'postgres', url: data.database } as const)
      : ({ kind: 'sqlite', file: databaseFile(data.dataDir) } as const);

    context.log(`baseline: ${BASELINE_RUNS} GROUP BY queries over the ${formatCount(entries)} entries`);
    const db = openDatabase(location);
    const baselineMs: number[] = [];
    let bounds: { first: number; last: number };
    try {
      bounds = await groupEveryEntry(db, scanId, 1000);
      const next = random(5);
      for (let i = 0; i < BASELINE_RUNS; i++) {
        const started = performance.now();
        await groupEveryEntry(db, scanId, 1 + Math.floor(next() * 1000));
        baselineMs.push(performance.now() - started);
      }
    } finally {
      await db.destroy();
    }
    baselineMs.sort((a, b) => a - b);

    const server = await startServe(context.scratch, data.dataDir, data.database);
    try {
      const base = `${server.url}/v1/scans/${scanId}/evidence/timeline/buckets`;
      // The timeline was bulk-loaded without a pyramid, like one stored before pyramids existed:
      // its first chart builds and stores it.
      const started = performance.now();
      await sequentialGets(`${base}?n=1000`, server.token, 0, 1);
      const firstMs = performance.now() - started;

      const next = random(11);
      const span = bounds.last + 1 - bounds.first;
      const url = (): string => {
        const n = 1 + Math.floor(next() * 1000);
        if (next() < 0.3) return `${base}?n=${n}`;
        const since = bounds.first + Math.floor(next() * span);
        const until = since + 1 + Math.floor(next() * (bounds.last + 1 - since));
        return `${base}?n=${n}&since=${new Date(since).toISOString()}&until=${new Date(until).toISOString()}`;
      };
      const { warmup, measured } = context.quick ? REQUESTS.quick : REQUESTS.full;
      context.log(`${measured} bucket requests, random n and windows`);
      const run = await sequentialGets(url, server.token, warmup, measured);
      return [
        result({
          benchmark: NAME,
          label: `buckets of a ${formatCount(entries)}-entry timeline, any n and window: p99`,
          metric: 'ms',
          value: run.p99,
          baseline: { label: 'GROUP BY over every entry, p50', value: percentile(baselineMs, 50) },
          target: { kind: 'max', limit: P99_TARGET_MS, unit: 'ms' },
          note: `${run.samples} sequential requests, p50 ${run.p50.toFixed(2)} ms`,
        }),
        result({
          benchmark: NAME,
          label: 'first chart of a timeline stored without a pyramid (builds it)',
          metric: 'ms',
          value: firstMs,
          baseline: null,
          note: 'once per timeline bulk-loaded or stored before pyramids',
        }),
      ];
    } finally {
      await server.stop();
    }
  },
});
