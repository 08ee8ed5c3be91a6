import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../../../src/main/db/postgres/postgres-connection';
import { startFakePostgres, type FakePostgres } from '../../../helpers/fake-postgres';

// Where a password for PostgreSQL may come from, as the server reaches the database: each source
// is checked by what arrives at a server that asks for it (the shared test cluster trusts every
// login, so it could not tell). The same on either test backend: no store is involved.

describe('the PostgreSQL password', () => {
  let fake: FakePostgres;
  const dir = mkdtempSync(join(tmpdir(), 'scandesk-pgpass-'));
  const saved = { PGPASSWORD: process.env.PGPASSWORD, PGPASSFILE: process.env.PGPASSFILE };

  beforeAll(async () => {
    fake = await startFakePostgres();
  });
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) Reflect.deleteProperty(process.env, key);
      else process.env[key] = value;
    }
  });
  afterAll(() => fake.close());

  /** The password the fake server receives when a store opened with these settings connects. */
  async function passwordSent(url: string, passwordFile?: string): Promise<string> {
    const db = openPostgres(url, { passwordFile, poolSize: 1 });
    try {
      const received = fake.nextPassword();
      await expect(sql`SELECT 1`.execute(db)).rejects.toThrow(/password authentication failed/);
      return await received;
    } finally {
      await db.destroy();
    }
  }

  const url = (auth = 'me', query = '') => `postgres://${auth}@127.0.0.1:${fake.port}/team${query}`;

  it('is taken from the URL: user info or the password parameter', async () => {
    expect(await passwordSent(url('me:in-url'))).toBe('in-url');
    expect(await passwordSent(url('me', '?password=in-query'))).toBe('in-query');
  });

  it('is taken from a password file: its first line, any characters', async () => {
    const file = join(dir, 'password');
    writeFileSync(file, 'p@ss%w:rd/? \'"é\nsecond line\n', { mode: 0o600 });
    expect(await passwordSent(url(), file)).toBe('p@ss%w:rd/? \'"é');
  });

  it('is taken from PGPASSWORD when neither gives one (pg reads it)', async () => {
    process.env.PGPASSWORD = 'from-env';
    expect(await passwordSent(url())).toBe('from-env');
    const file = join(dir, 'file-wins');
    writeFileSync(file, 'from-file\n', { mode: 0o600 });
    expect(await passwordSent(url(), file)).toBe('from-file');
  });

  it('is taken from the password file of PGPASSFILE (~/.pgpass) when nothing else gives one', async () => {
    delete process.env.PGPASSWORD;
    const pgpass = join(dir, 'pgpass');
    writeFileSync(pgpass, `127.0.0.1:${fake.port}:team:me:from-pgpass\n`);
    chmodSync(pgpass, 0o600);
    process.env.PGPASSFILE = pgpass;
    expect(await passwordSent(url())).toBe('from-pgpass');
  });
});
