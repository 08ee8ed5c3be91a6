import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupProcesses, makeTempDir, runCli, startServe } from '../../helpers/serve-process';
import { testDatabaseFor } from '../../helpers/test-database';

afterAll(cleanupProcesses);

describe('scandesk store copy', () => {
  it('copies a store into a new data directory with progress, then refuses to copy into it again', async () => {
    const source = makeTempDir();
    const demo = await runCli(['demo', '--data-dir', source, '--scans', '300', '--now', '2026-11-20']);
    expect(demo.code, demo.stderr).toBe(0);
    // The run's backend decides where the source store is: its SQLite file or its database.
    const location = await testDatabaseFor(source);
    const from = location?.kind === 'postgres' ? location.url : source;
    const target = join(makeTempDir(), 'copy');

    const copied = await runCli(['store', 'copy', '--from', from, '--to', target], { timeoutMs: 60_000 });
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stdout).toMatch(
      /^copied [\d,]+ rows \(\d+ users, .*300 scans, 300 timelines, [\d,]+ timeline_entries/,
    );
    expect(copied.stderr).toMatch(/100% {2}[\d,]+\/[\d,]+ rows/);
    expect(existsSync(join(target, 'scandesk.db'))).toBe(true);

    // The copy serves as a store of its own, under the same owner token; the token file goes along
    // between data directories, and from a database it is the source data directory's.
    if (location) copyFileSync(join(source, 'token'), join(target, 'token'));
    expect(readFileSync(join(target, 'token'), 'utf8')).toBe(readFileSync(join(source, 'token'), 'utf8'));
    const server = await startServe({ dataDir: target, env: { SCANDESK_DATABASE_URL: undefined } });
    const response = await fetch(`${server.url}/v1/scans?limit=1`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(((await response.json()) as { total: number }).total).toBe(300);
    await server.stop();

    const again = await runCli(['store', 'copy', '--from', from, '--to', target]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/target store is not empty/);
  }, 120_000);

  it('says what is wrong with its arguments', async () => {
    const missing = await runCli(['store', 'copy', '--from', join(makeTempDir(), 'none'), '--to', makeTempDir()]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/holds no store/);
    const scheme = await runCli(['store', 'copy', '--from', 'mysql://x/y', '--to', makeTempDir()]);
    expect(scheme.code).toBe(2);
    // A server that is not there: one sentence, the password masked, no stack; and a warning that
    // the password was on the command line.
    const down = await runCli(['store', 'copy', '--from', 'postgres://me:pw@127.0.0.1:1/db', '--to', makeTempDir()]);
    expect(down.code).toBe(1);
    const [warning, error, ...rest] = down.stderr.split('\n');
    expect(warning).toMatch(/^warning: the password in --from can be read by other local users/);
    expect(error).toBe(
      'error: cannot reach the store at postgres://me:***@127.0.0.1:1/db: connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(rest).toEqual(['']);
  });
});
