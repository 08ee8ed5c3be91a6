import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { ImportResult } from '../src/shared/api/evidence';
import { databaseFile } from '../src/main/workspace/data-dir';
import { createTimelineDataDir, type PackageFile } from './lib/evidence-fixture';
import { cpuOf, CpuSampler } from './lib/cpu-time';
import { formatCount, formatNumber } from './lib/format';
import { downloadToFile, postFile } from './lib/http';
import { keptAliveGets } from './lib/latency';
import { MB, procStatusBytes } from './lib/memory';
import { PgWalSize } from './lib/pg-wal-size';
import { result } from './lib/result';
import { startServe, type ServeChild } from './lib/serve-child';
import { p99, SoakWindows, type WindowSummary } from './lib/soak-windows';
import { CONNECTIONS, type Load, loadOptions, measureLoad, warmUp } from './lib/submit-load';
import { type Contender, measureInTurns } from './lib/turns';
import { defineBenchmark, type BenchContext, type Result } from './lib/types';

const NAME = 'soak';
/** Windows and their length: ten minutes in a full run, one in a quick one. */
const WINDOWS = { full: 10, quick: 4 } as const;
const WINDOW_S = { full: 60, quick: 15 } as const;
/** The package imported once a window (a different scan each time, so that every import writes). */
const PACKAGE_ENTRIES = { full: 100_000, quick: 2_000 } as const;
/** The import starts this far into its window; the export of what it imported follows it. */
const JOB_OFFSET = 0.1;
const SAMPLE_MS = 1000;
/** A submit not answered in this long counts as a stall (autocannon's default is 10 s). */
const SUBMIT_TIMEOUT_S = 30;

/**
 * The hold is judged in turns after the run: the soaked server and a fresh one (a new store,
 * warmed up as the soaked one was before its first minute) take the same mix in turns, `rounds`
 * of `seconds` each. The last minute against the first compares two phases of this machine ten
 * minutes apart, and its speed drifts by more than the target allows in that time (CPU per submit
 * a fifth lower from one minute to the next, same code, same store; docs/benchmarks.md).
 */
const TURNS = { full: { rounds: 6, seconds: 10 }, quick: { rounds: 2, seconds: 5 } } as const;

const THROUGHPUT_TARGET = 0.9;
const WAL_TARGET_MB = 64;
/**
 * Flat RSS: the median of the server's RSS samples in the last window at most 10 % above the
 * first window's. Both are taken under the same load, after the warm-up, so the JIT, the caches and
 * the pools are grown in both; what grows beyond them from minute to minute is a leak.
 */
const RSS_TARGET = 1.1;

const LIST_PATH = '/v1/scans?limit=50';
const statsPath = (): string => {
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  return `/v1/stats/tokens?since=${since}&bucket=day&group_by=tool`;
};

/**
 * One package per window, each of a different scan (timelines of `entries`, `entries + 1`, …
 * entries: the fixture names a scan by its length), built in a SQLite data dir of their own and
 * downloaded once.
 */
async function soakPackages(context: BenchContext, count: number, entries: number): Promise<PackageFile[]> {
  const dataDir = context.scratch.tempDir('soak-packages');
  const sizes = Array.from({ length: count }, (_, i) => entries + i);
  context.log(`building ${count} packages of ${formatCount(entries)} entries`);
  const data = await createTimelineDataDir(dataDir, sizes);
  const packages = context.scratch.tempDir('soak-package');
  const server = await startServe(context.scratch, dataDir);
  try {
    const files: PackageFile[] = [];
    for (const size of sizes) {
      const scanId = data.scans.get(size)!;
      const path = join(packages, `${scanId}.zip`);
      const bytes = await downloadToFile(`${server.url}/v1/scans/${scanId}/evidence/download`, server.token, path);
      files.push({ path, bytes, scanId, entries: size });
    }
    return files;
  } finally {
    await server.stop();
    await context.scratch.removeDir(dataDir);
  }
}

const sleepUntil = (at: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

/** Imports `pkg` and exports the scan it stored; resolves both times, ms. */
async function importThenExport(server: ServeChild, pkg: PackageFile, downloads: string): Promise<[number, number]> {
  const started = performance.now();
  const answer = await postFile(`${server.url}/v1/evidence/imports`, server.token, pkg.path, 'application/zip');
  const imported = performance.now();
  if (answer.status !== 201) throw new Error(`POST /v1/evidence/imports answered ${answer.status}: ${answer.body}`);
  const stored = (JSON.parse(answer.body) as ImportResult).ids[pkg.scanId];
  if (stored === undefined) throw new Error(`the import did not store ${pkg.scanId}: ${answer.body}`);
  const file = join(downloads, `${stored}.zip`);
  await downloadToFile(`${server.url}/v1/scans/${stored}/evidence/download`, server.token, file);
  const exported = performance.now();
  await rm(file);
  return [imported - started, exported - imported];
}

/** GETs `path` one after another until `end`, each answer's time (ms) given to `record`. */
async function readUntil(
  server: ServeChild,
  path: () => string,
  record: (ms: number) => void,
  end: number,
): Promise<void> {
  const { get, close } = keptAliveGets(server.token);
  try {
    while (performance.now() < end) {
      const started = performance.now();
      await get(`${server.url}${path()}`);
      record(performance.now() - started);
    }
  } finally {
    close();
  }
}

type ReadKind = 'list' | 'stats';
type Reads = Record<ReadKind, number[]>;

/** The list reader and the stats reader on `server` until `end`, each answer's time given to `record`. */
const readers = (server: ServeChild, end: number, record: (kind: ReadKind, ms: number) => void) =>
  Promise.all([
    readUntil(
      server,
      () => LIST_PATH,
      (ms) => record('list', ms),
      end,
    ),
    readUntil(server, statsPath, (ms) => record('stats', ms), end),
  ]);

/** One turn: the submit load and both readers on `server` for `seconds`, without the import and export. */
async function mixedTurn(server: ServeChild, seconds: number, reads: Reads): Promise<Load> {
  const end = performance.now() + seconds * 1000;
  const [load] = await Promise.all([
    measureLoad(server, seconds),
    readers(server, end, (kind, ms) => reads[kind].push(ms)),
  ]);
  return load;
}

type Age = 'soaked' | 'fresh';
interface TurnsSummary {
  load: Load;
  listP99: number | null;
  statsP99: number | null;
}

/** The soaked server and a fresh one on a new store, in turns (see TURNS). */
async function holdInTurns(context: BenchContext, soaked: ServeChild): Promise<Record<Age, TurnsSummary>> {
  const { rounds, seconds } = context.quick ? TURNS.quick : TURNS.full;
  const dataDir = context.scratch.tempDir('soak-fresh');
  const fresh = await startServe(context.scratch, dataDir, await context.storeFor('soak-fresh'));
  try {
    await warmUp(fresh);
    const reads: Record<Age, Reads> = { soaked: { list: [], stats: [] }, fresh: { list: [], stats: [] } };
    const contender = (kind: Age, server: ServeChild): Contender<Age> => ({
      kind,
      measure: (turnSeconds) => mixedTurn(server, turnSeconds, reads[kind]),
    });
    context.log(`the soaked server and a fresh one in turns: ${rounds} rounds of ${seconds} s each`);
    const loads = await measureInTurns([contender('soaked', soaked), contender('fresh', fresh)], rounds, seconds);
    const summary = (kind: Age): TurnsSummary => ({
      load: loads[kind],
      listP99: p99(reads[kind].list),
      statsP99: p99(reads[kind].stats),
    });
    return { soaked: summary('soaked'), fresh: summary('fresh') };
  } finally {
    await fresh.stop();
    await context.scratch.removeDir(dataDir);
  }
}

/** The CPU of the PostgreSQL backends serving the database of `url` (their titles name it). */
function postgresBackends(url: string): CpuSampler {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  return new CpuSampler((line) => line.startsWith('postgres: ') && line.includes(` ${name} `));
}

const walSize = (file: string | null): number | null => {
  if (file === null) return null;
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

async function soak(
  context: BenchContext,
  packages: readonly PackageFile[],
): Promise<{ windows: WindowSummary[]; timeouts: number; turns: Record<Age, TurnsSummary> }> {
  const count = context.quick ? WINDOWS.quick : WINDOWS.full;
  const windowMs = (context.quick ? WINDOW_S.quick : WINDOW_S.full) * 1000;
  const dataDir = context.scratch.tempDir('soak');
  const database = await context.storeFor('soak');
  const wal = database ? null : `${databaseFile(dataDir)}-wal`;
  const downloads = context.scratch.tempDir('soak-downloads');
  const server = await startServe(context.scratch, dataDir, database);
  try {
    await warmUp({ url: server.url, token: server.token });
    const windows = new SoakWindows(count, windowMs);
    context.log(`soaking for ${count} × ${windowMs / 1000} s`);
    windows.start();
    const start = performance.now();
    const end = start + count * windowMs;

    const load = new Promise<number>((resolve, reject) => {
      const duration = (count * windowMs) / 1000;
      const options = { ...loadOptions(server, CONNECTIONS), duration, timeout: SUBMIT_TIMEOUT_S };
      const instance = autocannon(options, (error, run) => {
        if (error) reject(error as Error);
        else if (run.errors > run.timeouts) reject(new Error(`${run.errors - run.timeouts} submit connections failed`));
        else resolve(run.timeouts);
      });
      instance.on('response', (_client, status, _bytes, latency) =>
        windows.submit(status >= 200 && status < 300, latency),
      );
    });
    const backends = database === undefined ? undefined : postgresBackends(database);
    const pgWal =
      database === undefined || !context.adminUrl ? undefined : await PgWalSize.start(context.adminUrl, SAMPLE_MS);
    const sample = (): void =>
      windows.sample(
        pgWal ? pgWal.latest : walSize(wal),
        procStatusBytes(server.pid, 'VmRSS'),
        cpuOf(server.pid),
        backends?.read() ?? null,
      );
    sample();
    const sampler = setInterval(sample, SAMPLE_MS);
    const jobs = (async () => {
      for (let i = 0; i < count; i++) {
        await sleepUntil(start + (i + JOB_OFFSET) * windowMs);
        const [importMs, exportMs] = await importThenExport(server, packages[i]!, downloads);
        windows.job('importMs', i, importMs);
        windows.job('exportMs', i, exportMs);
        context.log(
          `  window ${i + 1}: import ${(importMs / 1000).toFixed(2)} s, export ${(exportMs / 1000).toFixed(2)} s`,
        );
      }
    })();
    let timeouts: number;
    try {
      [timeouts] = await Promise.all([load, readers(server, end, (kind, ms) => windows.read(kind, ms)), jobs]);
    } finally {
      clearInterval(sampler);
      backends?.stop();
      await pgWal?.stop();
    }
    const summaries = windows.summaries();
    const failures = summaries.reduce((sum, window) => sum + window.submitFailures, 0);
    if (failures > 0) throw new Error(`${failures} submits were answered other than 2xx`);
    return { windows: summaries, timeouts, turns: await holdInTurns(context, server) };
  } finally {
    await server.stop();
    await context.scratch.removeDir(dataDir);
  }
}

const ms = (value: number | null): string => (value === null ? '—' : `${formatNumber(value)} ms`);
const s = (value: number | null): string => (value === null ? '—' : `${(value / 1000).toFixed(2)} s`);

/** The log whose size is sampled: SQLite's `-wal` file, or the PostgreSQL cluster's `pg_wal`. */
const walLabel = (postgres: boolean): string => (postgres ? 'pg_wal' : 'WAL');

function windowRows(window: WindowSummary, unit: string, postgres: boolean): Result[] {
  const label = `${unit} ${window.index}`;
  const rows = [
    result({
      benchmark: NAME,
      label: `${label}: submits`,
      metric: 'req/s',
      value: window.submitsPerSecond,
      note: `${formatCount(window.submits)} submits; list p99 ${ms(window.listP99)} (${window.listRequests}), stats p99 ${ms(window.statsP99)} (${window.statsRequests}); import ${s(window.importMs)}, export ${s(window.exportMs)}`,
    }),
    result({ benchmark: NAME, label: `${label}: submit p99`, metric: 'ms', value: window.submitP99 }),
    result({
      benchmark: NAME,
      label: `${label}: server CPU per submit`,
      metric: 'ms',
      value: window.cpuSeconds === null ? Number.NaN : (window.cpuSeconds * 1000) / Math.max(1, window.submits),
      note:
        window.cpuSeconds === null
          ? undefined
          : `server CPU ${window.cpuSeconds.toFixed(1)} s in the ${unit}: the readers', the import's and the export's work included`,
    }),
  ];
  if (window.databaseCpuSeconds !== null) {
    rows.push(
      result({
        benchmark: NAME,
        label: `${label}: PostgreSQL CPU per submit`,
        metric: 'ms',
        value: (window.databaseCpuSeconds * 1000) / Math.max(1, window.submits),
        note: `the backends' CPU ${window.databaseCpuSeconds.toFixed(1)} s in the ${unit}, every client's work included`,
      }),
    );
  }
  if (window.walPeak !== null) {
    rows.push(
      result({
        benchmark: NAME,
        label: `${label}: ${walLabel(postgres)} peak`,
        metric: 'MB',
        value: window.walPeak / MB,
      }),
    );
  }
  rows.push(
    result({
      benchmark: NAME,
      label: `${label}: server RSS (median)`,
      metric: 'MB',
      value: (window.rssMedian ?? Number.NaN) / MB,
      note: `peak ${formatNumber((window.rssPeak ?? Number.NaN) / MB)} MB`,
    }),
  );
  return rows;
}

function turnsRows(turns: Record<Age, TurnsSummary>, minutes: string): Result[] {
  const { soaked, fresh } = turns;
  const reads = (turn: TurnsSummary): string => `list p99 ${ms(turn.listP99)}, stats p99 ${ms(turn.statsP99)}`;
  return [
    result({
      benchmark: NAME,
      label: `submits in turns: the server after ${minutes} against a fresh one`,
      metric: 'req/s',
      value: soaked.load.requestsPerSecond,
      baseline: { label: 'fresh server and store', value: fresh.load.requestsPerSecond },
      target: { kind: 'min', limit: THROUGHPUT_TARGET, unit: '× baseline', of: 'ratio' },
      note: `submit p99 ${ms(soaked.load.p99)} against ${ms(fresh.load.p99)}; soaked ${reads(soaked)}; fresh ${reads(fresh)}`,
    }),
  ];
}

function summaryRows(windows: readonly WindowSummary[], timeouts: number, unit: string, postgres: boolean): Result[] {
  const first = windows[0]!;
  const last = windows.at(-1)!;
  const rows = [
    result({
      benchmark: NAME,
      label: `submits, last ${unit} against the first`,
      metric: 'req/s',
      value: last.submitsPerSecond,
      baseline: { label: `${unit} 1`, value: first.submitsPerSecond },
      note: "two of the machine's phases apart: the hold is judged in turns",
    }),
  ];
  const walPeaks = windows.map((window) => window.walPeak).filter((peak) => peak !== null);
  if (walPeaks.length > 0) {
    rows.push(
      result({
        benchmark: NAME,
        label: `${walLabel(postgres)} peak over the run`,
        metric: 'MB',
        value: Math.max(...walPeaks) / MB,
        // PostgreSQL bounds its log itself (max_wal_size, min_wal_size): the cluster's settings, not the server's.
        target: postgres ? undefined : { kind: 'max', limit: WAL_TARGET_MB, unit: 'MB' },
        note: `sampled every ${SAMPLE_MS} ms; last ${unit}'s peak ${formatNumber(walPeaks.at(-1)! / MB)} MB${postgres ? "; the cluster's log, bounded by max_wal_size" : ''}`,
      }),
    );
  }
  rows.push(
    result({
      benchmark: NAME,
      label: `submits without an answer in ${SUBMIT_TIMEOUT_S} s`,
      metric: 'requests',
      value: timeouts,
      target: { kind: 'max', limit: 1, unit: 'requests' },
      note: 'a stall: autocannon gave up on them',
    }),
    result({
      benchmark: NAME,
      label: `server RSS (median), last ${unit} against the first`,
      metric: 'MB',
      value: (last.rssMedian ?? Number.NaN) / MB,
      baseline: { label: `${unit} 1`, value: (first.rssMedian ?? Number.NaN) / MB },
      target: { kind: 'max', limit: RSS_TARGET, unit: '× baseline', of: 'ratio' },
      note: `peak over the run ${formatNumber(Math.max(...windows.map((window) => window.rssPeak ?? 0)) / MB)} MB`,
    }),
  );
  return rows;
}

export default defineBenchmark({
  name: NAME,
  databases: ['sqlite', 'postgres'],
  description:
    'mixed load on one serve child for 10 minutes (1 with --quick): 32 submitting connections, a list and a stats reader, an import and an export a minute; then that server and a fresh one in turns',
  async run(context) {
    const count = context.quick ? WINDOWS.quick : WINDOWS.full;
    const entries = context.quick ? PACKAGE_ENTRIES.quick : PACKAGE_ENTRIES.full;
    const packages = await soakPackages(context, count, entries);
    const { windows, timeouts, turns } = await soak(context, packages);
    const unit = context.quick ? `${WINDOW_S.quick}-s window` : 'minute';
    const postgres = context.database === 'postgres';
    const soakedFor = context.quick ? `${count} × ${WINDOW_S.quick} s` : `${count} minutes`;
    return [
      ...windows.flatMap((window) => windowRows(window, unit, postgres)),
      ...summaryRows(windows, timeouts, unit, postgres),
      ...turnsRows(turns, soakedFor),
    ];
  },
});
