/**
 * A demo store for the benchmarks that measure reads at a size (`scale`): built by
 * `scandesk demo` into a temp dir, or with `--keep DIR` into DIR, where a later run finds it
 * (a marker file written after the demo succeeded) instead of spending minutes building it again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase, databaseUrl, withConnection } from '../../test/fixtures/postgres-cluster';
import { formatCount, seconds } from './format';
import { runCommand } from './run-command';
import { BIN, childEnv, ROOT } from './serve-child';
import type { BenchContext } from './types';

export const DEMO_SEED = 3;
export const DEMO_NOW = '2026-11-20T12:00:00Z';
const MARKER = 'bench-demo-store.json';

export interface DemoStore {
  dataDir: string;
  /** The PostgreSQL URL of its database; undefined on SQLite (the data dir's file). */
  database: string | undefined;
  /** Set when this run built it. */
  built?: { wallMs: number; peakRss: number; memoryMethod: string; summary: string };
}

interface Marker {
  scans: number;
  seed: number;
  now: string;
}

async function databaseExists(adminUrl: string, name: string): Promise<boolean> {
  const { rowCount } = await withConnection(adminUrl, (client) =>
    client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
  );
  return rowCount === 1;
}

/** A kept store of these scans on this backend, if a run before this one built it completely. */
async function keptStore(context: BenchContext, dataDir: string, name: string, scans: number) {
  const marker = join(dataDir, MARKER);
  if (!existsSync(marker)) return undefined;
  const kept = JSON.parse(readFileSync(marker, 'utf8')) as Marker;
  if (kept.scans !== scans || kept.seed !== DEMO_SEED || kept.now !== DEMO_NOW) return undefined;
  if (context.adminUrl && !(await databaseExists(context.adminUrl, name))) return undefined;
  // A kept cluster listens on a new port each run: the URL is made again, not read back.
  return { dataDir, database: context.adminUrl ? databaseUrl(context.adminUrl, name) : undefined };
}

/**
 * Autovacuum comes to a freshly loaded store's large tables (the timelines' entries, the
 * violations) a minute or more after the load, and then shares the 2 cores with whatever is being
 * measured: after a 10,000,000-scan build it ran for 14 minutes, and the run in its first minutes
 * read the list's p99 at 20.8 ms against 7.5–11 on the same store after it. The demo vacuums only
 * what its lists read; the rest is vacuumed here, before anything is measured.
 */
async function vacuumLoaded(context: BenchContext, database: string): Promise<void> {
  const started = performance.now();
  await withConnection(database, (client) => client.query('VACUUM'));
  context.log(`  vacuumed in ${seconds(performance.now() - started).toFixed(1)} s`);
}

/** `demo --scans N --seed 3 --now 2026-11-20T12:00:00Z` (ends with ANALYZE), kept or in a temp dir. */
export async function demoStore(context: BenchContext, prefix: string, scans: number): Promise<DemoStore> {
  const name = `${prefix}_${scans}`;
  if (context.keepDir) {
    const dataDir = join(context.keepDir, `${context.database}-${scans}`);
    const kept = await keptStore(context, dataDir, name, scans);
    if (kept) {
      context.log(`reusing the ${formatCount(scans)}-scan store kept in ${dataDir}`);
      return kept;
    }
  }
  const dataDir = context.keepDir
    ? join(context.keepDir, `${context.database}-${scans}`)
    : context.scratch.tempDir(prefix);
  let database: string | undefined;
  if (context.adminUrl) {
    database =
      context.keepDir && (await databaseExists(context.adminUrl, name))
        ? databaseUrl(context.adminUrl, name)
        : context.keepDir
          ? await createDatabase(context.adminUrl, name)
          : await context.storeFor(prefix);
  }
  context.log(`demo --scans ${formatCount(scans)} --seed ${DEMO_SEED} --now ${DEMO_NOW} on ${context.database}`);
  const run = await runCommand(
    context.scratch,
    process.execPath,
    [
      BIN,
      'demo',
      '--data-dir',
      dataDir,
      ...(database ? ['--database', database] : []),
      '--scans',
      String(scans),
      '--seed',
      String(DEMO_SEED),
      '--now',
      DEMO_NOW,
    ],
    { cwd: ROOT, env: childEnv() },
  );
  const summary = /^demo: .*$/m.exec(run.stdout)?.[0];
  if (!summary?.startsWith(`demo: ${formatCount(scans)} scans`)) {
    throw new Error(`unexpected demo output: ${run.stdout}${run.stderr}`);
  }
  context.log(`  built in ${seconds(run.wallMs).toFixed(1)} s`);
  if (database) await vacuumLoaded(context, database);
  if (context.keepDir) {
    const marker: Marker = { scans, seed: DEMO_SEED, now: DEMO_NOW };
    writeFileSync(join(dataDir, MARKER), `${JSON.stringify(marker)}\n`);
  }
  return {
    dataDir,
    database,
    built: { wallMs: run.wallMs, peakRss: run.peakRss, memoryMethod: run.memoryMethod, summary },
  };
}
