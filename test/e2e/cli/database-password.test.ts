/**
 * The PostgreSQL password as `scandesk serve` handles it, end to end: where it may come from (by
 * what a server that asks for it receives), that no output shows it, and that a password given on
 * the command line is gone from the process's arguments (ps, /proc) once it has started.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePostgres, type FakePostgres } from '../../helpers/fake-postgres';
import {
  BIN,
  childEnv,
  cleanupProcesses,
  makeTempDir,
  ROOT,
  runCli,
  type EnvOverrides,
} from '../../helpers/serve-process';

const SECRET = 'Sekr3t-pw';

describe('the database password and scandesk serve', () => {
  let fake: FakePostgres;
  let dir: string;
  const url = (auth = 'me', query = '') => `postgres://${auth}@127.0.0.1:${fake.port}/team${query}`;

  beforeAll(async () => {
    fake = await startFakePostgres();
    dir = makeTempDir();
  });
  afterAll(async () => {
    await cleanupProcesses();
    await fake.close();
  });

  /** `serve` against the fake database: it must fail to log in (exit 1) having sent `password`. */
  async function serve(args: string[], env: EnvOverrides = {}) {
    const received = fake.nextPassword();
    const result = await runCli(['serve', '--port', '0', '--data-dir', join(dir, 'data'), ...args], {
      env: { SCANDESK_DATABASE_URL: undefined, PGPASSWORD: undefined, PGPASSFILE: join(dir, 'none'), ...env },
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/cannot reach the store at postgres:\/\/me(:\*\*\*)?@127\.0\.0\.1:\d+\/team/);
    expect(`${result.stdout}${result.stderr}`).not.toContain(SECRET);
    return { result, password: await received };
  }

  it('takes it from --database, and warns that others can read it there', async () => {
    const { result, password } = await serve(['--database', url(`me:${SECRET}`)]);
    expect(password).toBe(SECRET);
    expect(result.stderr).toMatch(/^warning: the password in --database can be read by other local users/m);
  });

  it('masks a password given as the password parameter', async () => {
    const { result, password } = await serve(['--database', url('me', `?password=${SECRET}&sslmode=disable`)]);
    expect(password).toBe(SECRET);
    expect(result.stderr).toContain('?password=***&sslmode=disable');
  });

  it('takes it from --database-password-file, SCANDESK_DATABASE_URL or PGPASSWORD, without a warning', async () => {
    const file = join(dir, 'password');
    writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    for (const [args, env] of [
      [['--database', url(), '--database-password-file', file], {}],
      [[], { SCANDESK_DATABASE_URL: url(), SCANDESK_DATABASE_PASSWORD_FILE: file }],
      [[], { SCANDESK_DATABASE_URL: url(`me:${SECRET}`) }],
      [['--database', url()], { PGPASSWORD: SECRET }],
    ] as [string[], EnvOverrides][]) {
      const { result, password } = await serve(args, env);
      expect(password).toBe(SECRET);
      expect(result.stderr).not.toMatch(/^warning/m);
    }
  });

  it('refuses an unparseable URL without echoing it, and a password given twice', async () => {
    const unparseable = await runCli([
      'serve',
      '--data-dir',
      join(dir, 'data'),
      '--database',
      `postgres://me:${SECRET}@[bad`,
    ]);
    expect(unparseable.code).toBe(2);
    expect(unparseable.stderr).toMatch(/--database must be a URL like postgres:\/\/USER@HOST:PORT\/DB/);
    expect(unparseable.stderr).not.toContain(SECRET);
    const file = join(dir, 'twice');
    writeFileSync(file, 'other\n', { mode: 0o600 });
    const twice = await runCli([
      'serve',
      '--data-dir',
      join(dir, 'data'),
      '--database',
      url(`me:${SECRET}`),
      '--database-password-file',
      file,
    ]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/holds a password already/);
    const missing = await runCli([
      'serve',
      '--data-dir',
      join(dir, 'data'),
      '--database',
      url(),
      '--database-password-file',
      join(dir, 'nope'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the database password file .*nope \(ENOENT\)/);
  });

  it('is gone from /proc/PID/cmdline once the server has started', async () => {
    fake.hold = true;
    const received = fake.nextPassword();
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--data-dir', join(dir, 'data'), '--database', url(`me:${SECRET}`)],
      {
        cwd: ROOT,
        env: childEnv({ SCANDESK_DATABASE_URL: undefined }),
        stdio: 'ignore',
      },
    );
    try {
      // The server is connecting to the database: it is past parsing its arguments.
      expect(await received).toBe(SECRET);
      const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
      expect(cmdline).toContain('--database postgres://me:***@127.0.0.1');
      expect(cmdline).not.toContain(SECRET);
    } finally {
      fake.hold = false;
      child.kill('SIGKILL');
    }
  });
});
