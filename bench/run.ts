/**
 * `npm run bench [-- --quick] [-- --only NAME]`: runs every `bench/<name>.bench.ts` (or one),
 * prints one table of results with ratios against baselines measured in the same run, and
 * writes them to bench/results/latest.json. A missed target is printed, not an exit code: speed
 * depends on the machine, so only a broken benchmark fails the run.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { resultsFile, writeResults } from './lib/results-json';
import { createDatabase, startCluster, type Cluster } from '../test/fixtures/postgres-cluster';
import { Scratch } from './lib/scratch';
import { parseSize } from './lib/size';
import { renderSummary, renderTable } from './lib/table';
import { isBenchmark, type BenchContext, type BenchDatabase, type Benchmark, type Result } from './lib/types';

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const DEFAULT_JSON = join(BENCH_DIR, 'results', 'latest.json');
const SUFFIX = '.bench.ts';

const USAGE = `usage: npm run bench -- [--quick] [--size 1m|10m|N] [--keep DIR] [--database sqlite|postgres] [--only NAME]... [--json FILE]
  --quick      small sizes: checks that the benchmarks work, not how fast they are
  --size       the scans of the demo store \`scale\` measures (default 1m; 20k with --quick), e.g. 10m
  --keep DIR   keep the demo stores \`scale\` builds in DIR (with --database postgres, the cluster
               too) and reuse them in later runs instead of building them again
  --database   postgres: the PostgreSQL benchmarks, on a private cluster (default sqlite)
  --only NAME  run only this benchmark (repeatable)
  --json FILE  where to write the results (default bench/results/latest.json)`;

/** Every bench/*.bench.ts, in name order: adding a benchmark is adding a file. */
async function loadBenchmarks(): Promise<Benchmark[]> {
  const files = readdirSync(BENCH_DIR)
    .filter((file) => file.endsWith(SUFFIX))
    .sort();
  const benchmarks: Benchmark[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(join(BENCH_DIR, file)).href)) as { default?: unknown };
    if (!isBenchmark(module.default)) throw new Error(`${file}: the default export is not a benchmark`);
    if (`${module.default.name}${SUFFIX}` !== file) {
      throw new Error(`${file}: its name is "${module.default.name}"; name and file must agree`);
    }
    benchmarks.push(module.default);
  }
  return benchmarks;
}

interface RunOptions {
  quick: boolean;
  size: number | undefined;
  keepDir: string | undefined;
  database: BenchDatabase;
}

function createContext(options: RunOptions, scratch: Scratch, cluster?: Cluster): BenchContext {
  const memos = new Map<string, Promise<unknown>>();
  let databases = 0;
  return {
    ...options,
    adminUrl: cluster?.adminUrl,
    storeFor: async (label) =>
      cluster ? createDatabase(cluster.adminUrl, `bench_${label.replace(/\W/g, '_')}_${(databases += 1)}`) : undefined,
    scratch,
    memo<T>(key: string, create: () => Promise<T>): Promise<T> {
      let value = memos.get(key) as Promise<T> | undefined;
      if (!value) {
        value = create();
        memos.set(key, value);
      }
      return value;
    },
    log: (message) => process.stderr.write(`${message}\n`),
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true, default: [] },
      database: { type: 'string', default: 'sqlite' },
      size: { type: 'string' },
      keep: { type: 'string' },
      json: { type: 'string', default: DEFAULT_JSON },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.database !== 'sqlite' && values.database !== 'postgres') {
    process.stderr.write(`--database is sqlite or postgres, not "${values.database}"\n${USAGE}\n`);
    return 2;
  }
  const database: BenchDatabase = values.database;
  const size = values.size === undefined ? undefined : parseSize(values.size);
  if (size === null) {
    process.stderr.write(`--size is a number of scans such as 10m, 500k or 20000, not "${values.size}"\n${USAGE}\n`);
    return 2;
  }
  const keepDir = values.keep === undefined ? undefined : resolve(values.keep);
  if (keepDir) mkdirSync(keepDir, { recursive: true });
  const all = (await loadBenchmarks()).filter((benchmark) => (benchmark.databases ?? ['sqlite']).includes(database));
  const unknown = values.only.filter((name) => !all.some((benchmark) => benchmark.name === name));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown benchmark ${unknown.join(', ')}; there are: ${all.map((benchmark) => benchmark.name).join(', ')}\n`,
    );
    return 2;
  }
  const selected = values.only.length > 0 ? all.filter((benchmark) => values.only.includes(benchmark.name)) : all;

  const scratch = new Scratch();
  const stopOnSignal = (signal: NodeJS.Signals): void => {
    process.stderr.write(`${signal}: stopping children and removing temp dirs\n`);
    void scratch.cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);

  // One private PostgreSQL cluster for the whole run, as the test suite starts one.
  // With --keep its data dir stays in DIR, and so do the databases kept there.
  const cluster =
    database === 'postgres' ? await startCluster(keepDir ? { dir: join(keepDir, 'postgres') } : {}) : undefined;
  const context = createContext({ quick: values.quick, size, keepDir, database }, scratch, cluster);
  const results: Result[] = [];
  const errors: string[] = [];
  try {
    for (const benchmark of selected) {
      context.log(`== ${benchmark.name}: ${benchmark.description}`);
      const started = performance.now();
      try {
        results.push(...(await benchmark.run(context)));
      } catch (error) {
        errors.push(`${benchmark.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
      context.log(`   ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    await scratch.cleanup();
    cluster?.stop();
  }

  process.stdout.write(`\n${renderTable(results)}\n\n${renderSummary(results, errors)}\n`);
  writeResults(
    values.json,
    resultsFile(
      values.quick,
      selected.map((benchmark) => benchmark.name),
      results,
      errors,
    ),
  );
  process.stdout.write(`results written to ${values.json}\n`);
  return errors.length > 0 ? 1 : 0;
}

process.exitCode = await main();
