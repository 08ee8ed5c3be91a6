/**
 * `scandesk serve` as a real process on a real socket: the start line, the token file, the /v1 API
 * over HTTP, the Host check, a clean stop on SIGTERM/SIGINT and what a restart finds.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization, OrganizationList } from '../../src/shared/api/organizations';
import type { User } from '../../src/shared/api/users';
import { cleanupProcesses, makeTempDir, runCli, startServe, type ServeProcess } from '../helpers/serve-process';
import { onPostgres } from '../helpers/test-database';

const ENV_TOKEN = 'sdt_from-the-environment-0123456789';

/** A GET with a Host header of our choosing: fetch forbids setting Host. */
function getWithHost(
  url: string,
  path: string,
  host: string,
  token: string,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path, method: 'GET', agent: false, headers: { Host: host, Authorization: `Bearer ${token}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * A POST whose body arrives in two parts: the second only when `finish()` is called, so that the
 * request is in flight for as long as the test wants.
 */
function slowPost(
  server: ServeProcess,
  path: string,
  body: string,
): { finish(): void; response: Promise<{ status: number; body: string }> } {
  const bytes = Buffer.from(body);
  const req = request({
    hostname: '127.0.0.1',
    port: server.port,
    path,
    method: 'POST',
    agent: false,
    headers: {
      Authorization: `Bearer ${server.token}`,
      'Content-Type': 'application/json',
      'Content-Length': bytes.length,
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.write(bytes.subarray(0, 5));
  return { finish: () => req.end(bytes.subarray(5)), response };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function api(server: ServeProcess, path: string, init: RequestInit = {}, token = server.token): Promise<Response> {
  return fetch(server.url + path, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
  });
}

/** stdout without npm's `> scandesk@0.1.0 serve` banner and blank lines: the server's own lines. */
function serverStdoutLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line !== '' && !line.startsWith('> '));
}

describe('scandesk serve', () => {
  let server: ServeProcess;
  let envServer: ServeProcess;
  let orgId: string;

  beforeAll(async () => {
    // Both at once: each start costs about a second.
    [server, envServer] = await Promise.all([
      startServe({ launcher: 'npm', dataDir: join(makeTempDir(), 'data') }),
      startServe({ env: { SCANDESK_TOKEN: ENV_TOKEN } }),
    ]);
  });

  afterAll(cleanupProcesses);

  it('prints exactly one line, `listening on http://127.0.0.1:PORT`, on stdout', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    expect(serverStdoutLines(server.stdout())).toEqual([`listening on ${server.url}`]);
    // Without npm in between, stdout is that line and nothing else.
    expect(envServer.stdout()).toBe(`listening on ${envServer.url}\n`);
  });

  it('creates the data directory with a random sdt_ token in a 0600 token file, never logged', () => {
    expect(server.token).toMatch(/^sdt_[A-Za-z0-9_-]{43,}$/);
    expect(statSync(join(server.dataDir, 'token')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(server.dataDir, 'scandesk.db'))).toBe(!onPostgres);
    expect(server.stdout()).not.toContain(server.token);
    expect(server.stderr()).not.toContain(server.token);
  });

  it('answers /v1 over HTTP with the token from the token file, and only with it', async () => {
    const me = await api(server, '/v1/me');
    expect(me.status).toBe(200);
    const user = (await me.json()) as User;
    expect(user).toEqual({
      id: expect.stringMatching(/^usr_/),
      name: 'local',
      created_at: expect.stringMatching(/Z$/),
    });

    const anonymous = await fetch(`${server.url}/v1/me`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('unauthorized');

    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
  });

  it('creates an organization and lists it', async () => {
    const created = await api(server, '/v1/organizations', {
      method: 'POST',
      body: JSON.stringify({ name: 'Acme E2E' }),
    });
    expect(created.status).toBe(201);
    const organization = (await created.json()) as Organization;
    expect(organization).toMatchObject({ name: 'Acme E2E', plan: 'free', member_count: 1 });
    expect(organization.id).toMatch(/^org_/);
    expect(created.headers.get('location')).toContain(`/v1/organizations/${organization.id}`);
    orgId = organization.id;

    const list = await api(server, '/v1/organizations');
    expect(list.status).toBe(200);
    expect((await list.json()) as OrganizationList).toEqual({
      organizations: [{ id: orgId, name: 'Acme E2E', role: 'owner' }],
    });
  });

  it('refuses a foreign Host header with 403 forbidden, and accepts localhost:PORT', async () => {
    const evil = await getWithHost(server.url, '/v1/me', 'evil.example', server.token);
    expect(evil.status).toBe(403);
    expect((JSON.parse(evil.body) as { error: { code: string } }).error.code).toBe('forbidden');

    const evilWithPort = await getWithHost(server.url, '/v1/me', `evil.example:${server.port}`, server.token);
    expect(evilWithPort.status).toBe(403);

    const local = await getWithHost(server.url, '/v1/me', `localhost:${server.port}`, server.token);
    expect(local.status).toBe(200);
  });

  it('makes a first start take SCANDESK_TOKEN as the token', async () => {
    expect(envServer.token).toBe(ENV_TOKEN);
    expect(statSync(join(envServer.dataDir, 'token')).mode & 0o777).toBe(0o600);
    expect((await api(envServer, '/v1/me')).status).toBe(200);
    expect(envServer.stderr()).not.toContain(ENV_TOKEN);
    expect(await envServer.stop('SIGTERM')).toBe(0);
  });

  it('fails to start with one error line and exit 1: port in use, bad SCANDESK_TOKEN', async () => {
    const [portInUse, badToken] = await Promise.all([
      // The realistic mistake: the same command twice.
      runCli(['serve', '--port', String(server.port), '--data-dir', server.dataDir]),
      runCli(['serve', '--port', '0', '--data-dir', join(makeTempDir(), 'data')], { env: { SCANDESK_TOKEN: 'short' } }),
    ]);

    expect(portInUse.code, portInUse.stderr).toBe(1);
    expect(portInUse.stdout).toBe('');
    expect(portInUse.stderr).toBe(
      `error: cannot listen: listen EADDRINUSE: address already in use 127.0.0.1:${server.port}\n`,
    );

    expect(badToken.code, badToken.stderr).toBe(1);
    expect(badToken.stdout).toBe('');
    expect(badToken.stderr).toMatch(/^error: SCANDESK_TOKEN must be [^\n]+\n$/);

    // The first server did not notice.
    expect((await api(server, '/v1/me')).status).toBe(200);
  });

  it('stops on SIGTERM promptly with exit 0, finishing the request in flight and closing the database', async () => {
    const inFlight = slowPost(server, '/v1/organizations', JSON.stringify({ name: 'In Flight' }));
    await sleep(250); // the server has the request's headers
    const started = Date.now();
    const stopping = server.stop('SIGTERM');
    stopping.catch(() => undefined); // awaited below; no unhandled rejection if an expect fails first
    while (
      !server.stderr().includes('SIGTERM: finishing requests and closing the database') &&
      Date.now() - started < 5_000
    ) {
      await sleep(10);
    }
    await sleep(100);
    inFlight.finish();
    const answer = await inFlight.response;
    expect(answer.status, answer.body).toBe(201);

    const code = await stopping;
    expect(code, server.stderr()).toBe(0);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(server.stderr()).toContain('SIGTERM: finishing requests and closing the database');
    // SQLite checkpoints and deletes the WAL when the last connection closes; a killed process leaves it.
    expect(existsSync(join(server.dataDir, 'scandesk.db-wal'))).toBe(false);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('stops too when npm itself is sent SIGTERM, closing the database', async () => {
    const viaNpm = await startServe({ launcher: 'npm' });
    process.kill(viaNpm.process.pid!, 'SIGTERM');
    const started = Date.now();
    const running = (): boolean => {
      try {
        process.kill(viaNpm.serverPid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (running() && Date.now() - started < 5_000) await sleep(50);
    expect(running(), 'the server outlived npm').toBe(false);
    expect(existsSync(join(viaNpm.dataDir, 'scandesk.db-wal'))).toBe(false);
    await expect(fetch(`${viaNpm.url}/healthz`)).rejects.toThrow();
  });

  it('reopens the data directory: the organization and the token are still there; SIGINT stops it', async () => {
    const tokenBefore = readFileSync(join(server.dataDir, 'token'), 'utf8');
    // SCANDESK_TOKEN only counts at the first start.
    const reopened = await startServe({ dataDir: server.dataDir, env: { SCANDESK_TOKEN: ENV_TOKEN } });
    expect(reopened.stdout()).toBe(`listening on ${reopened.url}\n`);
    expect(reopened.stderr()).not.toContain('new data directory');
    expect(readFileSync(join(server.dataDir, 'token'), 'utf8')).toBe(tokenBefore);
    expect(reopened.token).toBe(server.token);

    const list = await api(reopened, '/v1/organizations');
    expect(list.status).toBe(200);
    expect((await list.json()) as OrganizationList).toEqual({
      organizations: [
        { id: orgId, name: 'Acme E2E', role: 'owner' },
        { id: expect.stringMatching(/^org_/), name: 'In Flight', role: 'owner' },
      ],
    });
    expect((await api(reopened, '/v1/me', {}, ENV_TOKEN)).status).toBe(401);

    expect(await reopened.stop('SIGINT')).toBe(0);
    expect(existsSync(join(server.dataDir, 'scandesk.db-wal'))).toBe(false);
  });
});
