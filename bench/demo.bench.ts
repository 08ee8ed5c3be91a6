import { formatCount, seconds } from './lib/format';
import { MB } from './lib/memory';
import { result } from './lib/result';
import { runCommand } from './lib/run-command';
import { BIN, childEnv, ROOT } from './lib/serve-child';
import { defineBenchmark } from './lib/types';

const NAME = 'demo';
const SCANS = { full: 1_000_000, quick: 20_000 } as const;
/** A million scans in under a minute: what a first look at a large store may cost. */
const TARGET_S = 60;

export default defineBenchmark({
  name: NAME,
  description: 'node bin/scandesk.js demo --scans N into a new data dir (no baseline: nothing else does this)',
  async run(context) {
    const scans = context.quick ? SCANS.quick : SCANS.full;
    const dataDir = context.scratch.tempDir('demo');
    context.log(`demo --scans ${formatCount(scans)}`);
    let run;
    try {
      run = await runCommand(
        context.scratch,
        process.execPath,
        [BIN, 'demo', '--data-dir', dataDir, '--scans', String(scans), '--seed', '1'],
        { cwd: ROOT, env: childEnv() },
      );
    } finally {
      await context.scratch.removeDir(dataDir);
    }
    const summary = /^demo: .*$/m.exec(run.stdout)?.[0];
    if (!summary?.startsWith(`demo: ${formatCount(scans)} scans`)) {
      throw new Error(`unexpected demo output: ${run.stdout}${run.stderr}`);
    }
    const label = `demo ${formatCount(scans)} scans`;
    return [
      result({
        benchmark: NAME,
        label,
        metric: 's',
        value: seconds(run.wallMs),
        target: { kind: 'max', limit: TARGET_S, unit: 's' },
        note: `${summary} (wall time includes process start)`,
      }),
      result({
        benchmark: NAME,
        label: `${label}: peak memory`,
        metric: 'MB',
        value: run.peakRss / MB,
        note: `whole process (${run.memoryMethod})`,
      }),
    ];
  },
});
