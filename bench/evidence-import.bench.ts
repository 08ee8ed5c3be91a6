import type { ImportResult } from '../src/shared/api/evidence';
import { evidencePackage, timelineSizes, type PackageFile } from './lib/evidence-fixture';
import { formatCount, seconds } from './lib/format';
import { postFile } from './lib/http';
import { MB } from './lib/memory';
import { result } from './lib/result';
import { runCommand } from './lib/run-command';
import { startServe } from './lib/serve-child';
import { defineBenchmark, type BenchContext, type Result } from './lib/types';

const NAME = 'evidence-import';

function checkImported(status: number, body: string, scanId: string): void {
  if (status !== 201) throw new Error(`POST /v1/evidence/imports answered ${status}: ${body}`);
  const answer = JSON.parse(body) as ImportResult;
  // Another user's scan: stored under an id of the importer's own (docs/security.md, Imported ids).
  const stored = answer.ids[scanId];
  if (stored === undefined || !answer.imported.includes(stored)) {
    throw new Error(`the import did not import ${scanId}: ${body}`);
  }
}

async function importOne(context: BenchContext, pkg: PackageFile): Promise<Result[]> {
  const label = `import ${formatCount(pkg.entries)}-entry package`;
  context.log(`${label} (${formatCount(pkg.bytes)} bytes) into a fresh server`);
  // A fresh data dir and process per package: no earlier import's pages or heap in the numbers.
  const dataDir = context.scratch.tempDir('import');
  const server = await startServe(context.scratch, dataDir, await context.storeFor('import'));
  let upload;
  try {
    upload = await server.measure(() =>
      postFile(`${server.url}/v1/evidence/imports`, server.token, pkg.path, 'application/zip'),
    );
  } finally {
    await server.stop();
    await context.scratch.removeDir(dataDir);
  }
  checkImported(upload.value.status, upload.value.body, pkg.scanId);

  // What reading the archive costs at the least: inflating every entry, nothing else.
  const unzip = await runCommand(context.scratch, 'unzip', ['-p', pkg.path], { stdoutFile: '/dev/null' });
  return [
    result({
      benchmark: NAME,
      label,
      metric: 'entries/s',
      value: pkg.entries / seconds(upload.wallMs),
      baseline: { label: 'unzip -p', value: pkg.entries / seconds(unzip.wallMs) },
      note: `${seconds(upload.wallMs).toFixed(2)} s for the request (upload, both passes, commit); unzip -p ${seconds(unzip.wallMs).toFixed(3)} s`,
    }),
    result({
      benchmark: NAME,
      label: `${label}: peak memory above idle`,
      metric: 'MB',
      value: (upload.peakRss - upload.idleRss) / MB,
      baseline: { label: 'unzip -p peak RSS', value: unzip.peakRss / MB },
      note: `idle ${(upload.idleRss / MB).toFixed(1)} MB, peak ${(upload.peakRss / MB).toFixed(1)} MB (${upload.memoryMethod}); unzip ${unzip.memoryMethod}`,
    }),
  ];
}

export default defineBenchmark({
  name: NAME,
  databases: ['sqlite', 'postgres'],
  description: 'POST /v1/evidence/imports of a long and a shorter package into fresh serve children; baseline unzip -p',
  async run(context) {
    const { large, small } = timelineSizes(context);
    const rows: Result[] = [];
    for (const entries of [large, small])
      rows.push(...(await importOne(context, await evidencePackage(context, entries))));
    return rows;
  },
});
