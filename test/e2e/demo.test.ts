/** `scandesk demo` as a user runs it: a real process, a real data directory. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupProcesses, makeTempDir, runCli } from '../helpers/serve-process';
import { onPostgres } from '../helpers/test-database';

describe('scandesk demo', () => {
  afterAll(cleanupProcesses);

  it('fills a new data directory and prints one summary line', async () => {
    const dataDir = join(makeTempDir(), 'data');
    const result = await runCli(['demo', '--data-dir', dataDir, '--scans', '500', '--seed', '7'], {
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^demo: 500 scans, [\d,]+ timeline entries, [\d,]+ violations, 4 organizations in \d+\.\d s into (.+data|postgres:\/\/.+)$/,
    );
    // Not a terminal: progress lines every 10%, ending at 100%, and the new token's location.
    expect(result.stderr).toMatch(/100%\s+500\/500 scans/);
    expect(result.stderr).toContain('token written to');
    // The store is the data directory's SQLite file, or the run's PostgreSQL database.
    expect(existsSync(join(dataDir, 'scandesk.db'))).toBe(!onPostgres);
    expect(readFileSync(join(dataDir, 'token'), 'utf8')).toMatch(/^sdt_/);
  });

  it('refuses bad arguments with a usage error', async () => {
    const [noDir, badScans, badNow] = await Promise.all([
      runCli(['demo']),
      runCli(['demo', '--data-dir', makeTempDir(), '--scans', 'many']),
      runCli(['demo', '--data-dir', makeTempDir(), '--now', 'yesterday']),
    ]);
    for (const [result, message] of [
      [noDir, /--data-dir is required/],
      [badScans, /--scans must be a whole number/],
      [badNow, /--now must be an ISO 8601/],
    ] as const) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
  });
});
