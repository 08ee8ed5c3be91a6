import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile, tokenFile } from '../../../src/main/workspace/data-dir';
import { buildApp } from '../../../src/main/server/app';
import { deleteUser } from '../../../src/main/users/users.repository';
import { openWorkspace, WorkspaceError } from '../../../src/main/workspace/workspace';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext } from '../../helpers/test-app';
import { onPostgres, testDatabaseFor } from '../../helpers/test-database';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('authentication (docs/contract/auth.md#tokens)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('accepts the owner token', async () => {
    const response = await ctx.request({ method: 'GET', url: '/v1/me' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: ctx.owner.id, name: 'local' });
  });

  it.each([
    { label: 'no Authorization header', authorization: undefined },
    { label: 'an unknown token', authorization: 'Bearer sdt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    { label: 'an empty Bearer', authorization: 'Bearer' },
    { label: 'Bearer and spaces', authorization: 'Bearer    ' },
    { label: 'Basic credentials', authorization: 'Basic bG9jYWw6cGFzc3dvcmQ=' },
    { label: 'a bare token without scheme', authorization: 'TOKEN' },
    { label: 'two tokens', authorization: 'Bearer a b' },
    { label: 'the token hash instead of the token', authorization: 'HASH' },
  ])('$label → 401 with WWW-Authenticate: Bearer', async ({ authorization }) => {
    const value =
      authorization === 'TOKEN'
        ? ctx.owner.token
        : authorization === 'HASH'
          ? `Bearer ${sha256(ctx.owner.token)}`
          : authorization;
    const response = await ctx.request({
      method: 'GET',
      url: '/v1/me',
      as: null,
      headers: value === undefined ? {} : { authorization: value },
    });
    expectError(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toMatch(/^Bearer\b/);
  });

  it('the owner token with a changed last character is refused', async () => {
    const token = ctx.owner.token;
    const last = token.endsWith('A') ? 'B' : 'A';
    const response = await ctx.request({
      method: 'GET',
      url: '/v1/me',
      as: { ...ctx.owner, token: token.slice(0, -1) + last },
    });
    expectError(response, 401, 'unauthorized');
  });

  it('a token of a deleted user → 401', async () => {
    const user = await ctx.createUser('leaver');
    expect((await ctx.request({ method: 'GET', url: '/v1/me', as: user })).statusCode).toBe(200);
    await deleteUser(ctx.db, user.id);
    const response = await ctx.request({ method: 'GET', url: '/v1/me', as: user });
    expectError(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toMatch(/^Bearer\b/);
  });
});

describe('Host and cross-site guards (docs/contract/auth.md#host-and-origin)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const SAME_ORIGIN_HOST = '127.0.0.1:4790';

  it.each([
    { label: 'Host: evil.example', headers: { host: 'evil.example' } },
    { label: 'Host: evil.example with our port', headers: { host: 'evil.example:4790' } },
    { label: 'Host: 127.0.0.1.evil.example', headers: { host: '127.0.0.1.evil.example' } },
    { label: 'Host: localhost.evil.example:4790', headers: { host: 'localhost.evil.example:4790' } },
    { label: 'Host: 127.0.0.2', headers: { host: '127.0.0.2:4790' } },
    { label: 'Host: 0.0.0.0', headers: { host: '0.0.0.0:4790' } },
    { label: 'Origin: http://evil.example', headers: { host: SAME_ORIGIN_HOST, origin: 'http://evil.example' } },
    { label: 'Origin: null', headers: { host: SAME_ORIGIN_HOST, origin: 'null' } },
    { label: 'Origin with another port', headers: { host: SAME_ORIGIN_HOST, origin: 'http://127.0.0.1:8080' } },
    { label: 'Origin over https', headers: { host: SAME_ORIGIN_HOST, origin: 'https://127.0.0.1:4790' } },
    { label: 'Sec-Fetch-Site: cross-site', headers: { host: SAME_ORIGIN_HOST, 'sec-fetch-site': 'cross-site' } },
  ])('$label → 403 forbidden, with or without a valid token', async ({ headers }) => {
    for (const url of ['/v1/me', '/v1/organizations', '/healthz', '/']) {
      const response = await ctx.request({ method: 'GET', url, headers });
      expectError(response, 403, 'forbidden');
    }
    expectError(await ctx.request({ method: 'GET', url: '/v1/me', headers, as: null }), 403, 'forbidden');
  });

  it('a cross-site write is refused and changes nothing', async () => {
    const response = await ctx.request({
      method: 'POST',
      url: '/v1/organizations',
      payload: { name: 'Planted' },
      headers: { host: SAME_ORIGIN_HOST, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expectError(response, 403, 'forbidden');
    expect(await ctx.db.selectFrom('organizations').selectAll().execute()).toEqual([]);
  });

  it.each([
    { label: 'no Origin', headers: { host: SAME_ORIGIN_HOST } },
    { label: 'same-origin Origin', headers: { host: SAME_ORIGIN_HOST, origin: `http://${SAME_ORIGIN_HOST}` } },
    { label: 'localhost same-origin', headers: { host: 'localhost:4790', origin: 'http://localhost:4790' } },
    { label: '[::1] same-origin', headers: { host: '[::1]:4790', origin: 'http://[::1]:4790' } },
    { label: 'Sec-Fetch-Site: same-origin', headers: { host: SAME_ORIGIN_HOST, 'sec-fetch-site': 'same-origin' } },
    { label: 'Sec-Fetch-Site: none', headers: { host: SAME_ORIGIN_HOST, 'sec-fetch-site': 'none' } },
  ])('$label is accepted', async ({ headers }) => {
    const response = await ctx.request({ method: 'GET', url: '/v1/me', headers });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('an --allow-host name is accepted, others still refused', async () => {
    const allowed = await createTestContext({ allowHosts: ['scandesk.internal'] });
    try {
      const ok = await allowed.request({ method: 'GET', url: '/v1/me', headers: { host: 'scandesk.internal:4790' } });
      expect(ok.statusCode, ok.body).toBe(200);
      expectError(
        await allowed.request({ method: 'GET', url: '/v1/me', headers: { host: 'evil.example' } }),
        403,
        'forbidden',
      );
    } finally {
      await allowed.close();
    }
  });
});

describe('tokens at rest (docs/contract/auth.md#tokens)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('only the SHA-256 of each token is stored', async () => {
    const direct = await ctx.createUser('direct');
    const viaApi = await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'via api' } });
    expect(viaApi.statusCode, viaApi.body).toBe(201);
    const apiToken = (viaApi.json() as { token: string }).token;
    expect(apiToken).toMatch(/^sdt_[A-Za-z0-9_-]{43,}$/);
    const tokens = [ctx.owner.token, direct.token, apiToken];

    const stored = (await ctx.db.selectFrom('tokens').select('token_hash').execute()).map((row) => row.token_hash);
    expect(stored.sort()).toEqual(tokens.map(sha256).sort());

    // The bytes of SQLite's files; on PostgreSQL the table rows above are all there is to read here.
    if (onPostgres) return;
    const file = databaseFile(ctx.dataDir);
    const raw = Buffer.concat(
      [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)),
    );
    expect(raw.length).toBeGreaterThan(0);
    for (const token of tokens) {
      expect(raw.includes(Buffer.from(token, 'utf8')), 'raw token found in the database files').toBe(false);
      // The raw token's random part alone must not be there either.
      expect(raw.includes(Buffer.from(token.slice(4), 'utf8'))).toBe(false);
      // The search does find what is stored: the hash.
      expect(raw.includes(Buffer.from(sha256(token), 'utf8'))).toBe(true);
    }
  });

  it('the token file holds the owner token, mode 0600', () => {
    const file = tokenFile(ctx.dataDir);
    expect(readFileSync(file, 'utf8').trim()).toBe(ctx.owner.token);
    expect(ctx.owner.token).toMatch(/^sdt_[A-Za-z0-9_-]{43,}$/);
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });
});

describe('SCANDESK_TOKEN at first start (openWorkspace initialToken)', () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'scandesk-security-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('becomes the owner token, stored hashed and written to the token file', async () => {
    const dataDir = join(tempDir(), 'data');
    const initialToken = 'my-chosen-token-0123456789';
    const workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir), initialToken });
    const app = await buildApp({ db: workspace.db, version: 'test' });
    try {
      expect(workspace.createdToken).toBe(initialToken);
      expect(readFileSync(tokenFile(dataDir), 'utf8').trim()).toBe(initialToken);
      if (process.platform !== 'win32') expect(statSync(tokenFile(dataDir)).mode & 0o777).toBe(0o600);
      const stored = await workspace.db.selectFrom('tokens').select('token_hash').execute();
      expect(stored).toEqual([{ token_hash: sha256(initialToken) }]);

      const ok = await app.inject({
        method: 'GET',
        url: '/v1/me',
        headers: { authorization: `Bearer ${initialToken}` },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ name: 'local' });
    } finally {
      await app.close();
      await workspace.close();
    }
  });

  it.each([
    { label: 'too short', token: 'short' },
    { label: 'empty', token: '' },
    { label: 'with a space', token: 'has a space in the middle!' },
    { label: 'with a newline', token: 'newline-in-the-token\nxyz' },
  ])('a token that is $label is refused with WorkspaceError before anything is created', async ({ token }) => {
    const dataDir = join(tempDir(), 'data');
    await expect(
      openWorkspace(dataDir, { database: await testDatabaseFor(dataDir), initialToken: token }),
    ).rejects.toBeInstanceOf(WorkspaceError);
    expect(existsSync(databaseFile(dataDir))).toBe(false);
    expect(existsSync(tokenFile(dataDir))).toBe(false);
  });
});

describe('logs never contain a token', () => {
  it.each(['info', 'trace'])('at level %s, requests are logged with the token redacted', async (level) => {
    const lines: string[] = [];
    const ctx = await createTestContext({ log: { write: (line: string) => void lines.push(line), level } });
    try {
      const token = ctx.owner.token;
      const wrong = 'sdt_WRONGWRONGWRONGWRONGWRONGWRONGWRONGWRONGWRO';
      expect((await ctx.request({ method: 'GET', url: '/v1/me' })).statusCode).toBe(200);
      await ctx.request({ method: 'GET', url: `/?token=${token}`, as: null });
      await ctx.request({ method: 'GET', url: `/?theme=dark&token=${encodeURIComponent(token)}#x`, as: null });
      await ctx.request({ method: 'GET', url: `/v1/me?token=${token}` });
      await ctx.request({ method: 'GET', url: `/?%74oken=${token}`, as: null });
      await ctx.request({ method: 'GET', url: '/v1/me', as: null, headers: { authorization: `Bearer ${wrong}` } });
      await ctx.request({ method: 'GET', url: '/v1/me', as: null, headers: { cookie: `scandesk_session=${token}` } });
      await ctx.request({
        method: 'POST',
        url: '/v1/organizations',
        payload: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      await ctx.request({ method: 'GET', url: '/v1/me', headers: { host: 'evil.example' } });
      const created = await ctx.request({ method: 'POST', url: '/v1/users', payload: { name: 'new user' } });
      const createdToken = (created.json() as { token: string }).token;

      expect(lines.length).toBeGreaterThan(0);
      const log = lines.join('\n');
      expect(log).toContain('/v1/me');
      expect(log).toContain('[redacted]');
      for (const secret of [token, token.slice(4), encodeURIComponent(token), wrong, createdToken]) {
        expect(log.includes(secret), `a token appears in the log:\n${log}`).toBe(false);
      }
    } finally {
      await ctx.close();
    }
  });
});
