import { createReadStream, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { packagePaths } from '../src/shared/evidence-package';
import { rememberPackage, timelineDataDir, timelineSizes } from './lib/evidence-fixture';
import { formatCount, seconds } from './lib/format';
import { downloadToFile } from './lib/http';
import { MB } from './lib/memory';
import { result } from './lib/result';
import { runCommand } from './lib/run-command';
import { startServe } from './lib/serve-child';
import { defineBenchmark } from './lib/types';

const NAME = 'evidence-export';
/** Export streams: its memory must not grow with the timeline. */
const MEMORY_TARGET_MB = 150;

async function countLines(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines += 1;
  }
  return lines;
}

/** Writing the package at least 0.6 times as fast as zip writes the bare timeline. */
const ZIP_TARGET_RATIO = 0.6;

export default defineBenchmark({
  name: NAME,
  databases: ['sqlite', 'postgres'],
  description: 'GET /v1/scans/:id/evidence/download of a long timeline from a serve child; baseline zip -q',
  async run(context) {
    const entries = timelineSizes(context).large;
    const data = await timelineDataDir(context);
    const scanId = data.scans.get(entries)!;
    const work = context.scratch.tempDir('export');
    const packageFile = join(work, `${scanId}.zip`);

    context.log(`downloading the ${formatCount(entries)}-entry package`);
    const server = await startServe(context.scratch, data.dataDir, data.database);
    let download;
    try {
      download = await server.measure(() =>
        downloadToFile(`${server.url}/v1/scans/${scanId}/evidence/download`, server.token, packageFile),
      );
    } finally {
      await server.stop();
    }
    rememberPackage(context, { path: packageFile, bytes: download.value, scanId, entries });

    // The baseline compresses exactly the bytes the server wrote, taken out of its own package.
    const timelineFile = join(work, 'timeline.jsonl');
    await runCommand(context.scratch, 'unzip', ['-p', packageFile, packagePaths(scanId).timeline], {
      stdoutFile: timelineFile,
    });
    const lines = await countLines(timelineFile);
    if (lines !== entries) throw new Error(`the package's timeline has ${lines} lines, expected ${entries}`);
    const timelineBytes = statSync(timelineFile).size;

    context.log('baseline: zip -q of the same timeline.jsonl');
    const zip = await runCommand(context.scratch, 'zip', ['-q', join(work, 'baseline.zip'), 'timeline.jsonl'], {
      cwd: work,
    });
    // The package stays for evidence-import; the rest is only disk space.
    await Promise.all([rm(timelineFile), rm(join(work, 'baseline.zip'))]);

    const throughput = timelineBytes / MB / seconds(download.wallMs);
    const baseline = timelineBytes / MB / seconds(zip.wallMs);
    return [
      result({
        benchmark: NAME,
        label: `export ${formatCount(entries)}-entry timeline`,
        metric: 'MB/s',
        value: throughput,
        baseline: { label: 'zip -q', value: baseline },
        target: { kind: 'min', limit: ZIP_TARGET_RATIO, unit: '× baseline', of: 'ratio' },
        note: `${formatCount(timelineBytes)} timeline bytes in ${seconds(download.wallMs).toFixed(2)} s; package ${formatCount(download.value)} bytes`,
      }),
      result({
        benchmark: NAME,
        label: 'export peak memory above idle',
        metric: 'MB',
        value: (download.peakRss - download.idleRss) / MB,
        target: { kind: 'max', limit: MEMORY_TARGET_MB, unit: 'MB' },
        note: `idle ${(download.idleRss / MB).toFixed(1)} MB, peak ${(download.peakRss / MB).toFixed(1)} MB (${download.memoryMethod})`,
      }),
    ];
  },
});
