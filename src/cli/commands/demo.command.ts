import { parseArgs } from 'node:util';
import { describeLocation, runDemo, tokenFile } from '../../main/cli-core';
import { EXIT, UsageError } from '../usage-error';
import { countProgress } from '../count-progress';
import { DATABASE_OPTION, databaseFlag } from './database-flag';
import { HOUR_MS } from '../../shared/time';
import { writeErr, writeOut } from '../output';

const MAX_SCANS = 100_000_000;

function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > MAX_SCANS) {
    throw new UsageError(
      `--scans must be a whole number from 0 to ${MAX_SCANS.toLocaleString('en-US')}, not "${value}"`,
    );
  }
  return n;
}

function parseSeed(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 0xffffffff) {
    throw new UsageError(`--seed must be a whole number from 0 to 4294967295, not "${value}"`);
  }
  return n;
}

function parseNow(value: string | undefined): number {
  // Rounded so that two runs in the same hour agree without pinning --now.
  if (value === undefined) return Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const ms = /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--now must be an ISO 8601 date or date-time, not "${value}"`);
  return ms;
}

const count = (n: number): string => n.toLocaleString('en-US');

export async function demoCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'data-dir': { type: 'string' },
      scans: { type: 'string', default: '5000' },
      seed: { type: 'string', default: '1' },
      now: { type: 'string' },
      ...DATABASE_OPTION,
    },
  });
  // No default: filling the real user-data folder with fake activity by accident is hard to undo.
  const dataDir = values['data-dir'];
  if (!dataDir) throw new UsageError('--data-dir is required');
  const scans = parseCount(values.scans);
  const seed = parseSeed(values.seed);
  const now = parseNow(values.now);
  const database = databaseFlag(values.database, values['database-password-file']);

  const summary = await runDemo({
    dataDir,
    database,
    scans,
    seed,
    now,
    initialToken: process.env.SCANDESK_TOKEN || undefined,
    onProgress: countProgress(process.stderr, 'scans'),
  });
  if (summary.createdToken) writeErr(`new data directory ${dataDir}; token written to ${tokenFile(dataDir)}\n`);
  writeOut(
    `demo: ${count(summary.scans)} scans, ${count(summary.timelineEntries)} timeline entries, ` +
      `${count(summary.violations)} violations, ${count(summary.organizations)} organizations ` +
      `in ${(summary.elapsedMs / 1000).toFixed(1)} s into ${database ? describeLocation(database) : dataDir}\n`,
  );
  return EXIT.ok;
}
