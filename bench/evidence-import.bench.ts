import type { ImportResult } from '../src/shared/api/evidence';
import { evidencePackage, timelineSizes, type PackageFile } from './lib/evidence-fixture';
import { formatCount, seconds } from './lib/format';
import { postFile, type HttpAnswer } from './lib/http';
import { getsDuring } from './lib/latency';
import { MB } from './lib/memory';
import { result } from './lib/result';
import { runCommand } from './lib/run-command';
import { startServe, type ServeChild } from './lib/serve-child';
import { defineBenchmark, type BenchContext, type Result } from './lib/types';

const NAME = 'evidence-import';

function checkImported(status: number, body: string, scanId: string): void {
  if (status !== 201) throw new Error(`POST /v1/evidence/imports answered ${status}: ${body}`);
  const answer = JSON.parse(body) as ImportResult;
  // Another user's scan: stored under an id of the importer's own (docs/contract/package-format.md#imported-ids).
  const stored = answer.ids[scanId];
  if (stored === undefined || !answer.imported.includes(stored)) {
    throw new Error(`the import did not import ${scanId}: ${body}`);
  }
}

/** Near SQLite's insert limit (~1.3 µs a row), in little memory, without stalling others. */
const RATE_TARGET = 500_000;
const MEMORY_TARGET_MB = 64;
const CONCURRENT_LIST_TARGET_MS = 100;

/** Imports `pkg` into a fresh data dir and server child (no earlier import's pages or heap in the numbers). */
async function freshImport<T>(
  context: BenchContext,
  pkg: PackageFile,
  during: (server: ServeChild, upload: () => Promise<HttpAnswer>) => Promise<T>,
): Promise<T> {
  const dataDir = context.scratch.tempDir('import');
  const server = await startServe(context.scratch, dataDir, await context.storeFor('import'));
  try {
    return await during(server, async () => {
      const answer = await postFile(`${server.url}/v1/evidence/imports`, server.token, pkg.path, 'application/zip');
      checkImported(answer.status, answer.body, pkg.scanId);
      return answer;
    });
  } finally {
    await server.stop();
    await context.scratch.removeDir(dataDir);
  }
}

async function importOne(context: BenchContext, pkg: PackageFile, targets: boolean): Promise<Result[]> {
  const label = `import ${formatCount(pkg.entries)}-entry package`;
  context.log(`${label} (${formatCount(pkg.bytes)} bytes) into a fresh server`);
  const upload = await freshImport(context, pkg, (server, post) => server.measure(post));

  // What reading the archive costs at the least: inflating every entry, nothing else.
  const unzip = await runCommand(context.scratch, 'unzip', ['-p', pkg.path], { stdoutFile: '/dev/null' });
  const rows = [
    result({
      benchmark: NAME,
      label,
      metric: 'entries/s',
      value: pkg.entries / seconds(upload.wallMs),
      baseline: { label: 'unzip -p', value: pkg.entries / seconds(unzip.wallMs) },
      target: targets ? { kind: 'min', limit: RATE_TARGET, unit: 'entries/s' } : null,
      note: `${seconds(upload.wallMs).toFixed(2)} s for the request (upload, one pass, commit); unzip -p ${seconds(unzip.wallMs).toFixed(3)} s`,
    }),
    result({
      benchmark: NAME,
      label: `${label}: peak memory above idle`,
      metric: 'MB',
      value: (upload.peakRss - upload.idleRss) / MB,
      baseline: { label: 'unzip -p peak RSS', value: unzip.peakRss / MB },
      target: targets ? { kind: 'max', limit: MEMORY_TARGET_MB, unit: 'MB' } : null,
      note: `idle ${(upload.idleRss / MB).toFixed(1)} MB, peak ${(upload.peakRss / MB).toFixed(1)} MB (${upload.memoryMethod}); unzip ${unzip.memoryMethod}`,
    }),
  ];
  if (!targets) return rows;

  // Again into a fresh server, now with a viewer listing scans all along: how long it waits.
  const { latency } = await freshImport(context, pkg, (server, post) =>
    getsDuring(`${server.url}/v1/scans?limit=50`, server.token, post),
  );
  rows.push(
    result({
      benchmark: NAME,
      label: `${label}: GET /v1/scans p99 during it`,
      metric: 'ms',
      value: latency.p99,
      target: { kind: 'max', limit: CONCURRENT_LIST_TARGET_MS, unit: 'ms' },
      note: `${latency.samples} list requests one after another during the import, p50 ${latency.p50.toFixed(1)} ms`,
    }),
  );
  return rows;
}

export default defineBenchmark({
  name: NAME,
  databases: ['sqlite', 'postgres'],
  description: 'POST /v1/evidence/imports of a long and a shorter package into fresh serve children; baseline unzip -p',
  async run(context) {
    const { large, small } = timelineSizes(context);
    const rows: Result[] = [];
    // The targets are set for the million-entry package (the quick run's large one is smaller).
    for (const entries of [large, small])
      rows.push(...(await importOne(context, await evidencePackage(context, entries), entries === large)));
    return rows;
  },
});
