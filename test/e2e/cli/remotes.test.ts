/** `scandesk remote add|list|test|remove` through a real server, against a remote of the test's own. */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteList } from '../../../src/shared/api/remotes';
import { closedPort, expectExit, expectUsage, lines, stopServers } from '../../helpers/cli-output';
import { makeTempDir, runCli, startServe, type ServeProcess } from '../../helpers/serve-process';

const REMOTE_TOKEN = 'sdt_remote-e2e-secret-token-0123456789';

describe('scandesk remote', () => {
  let server: ServeProcess;
  let remote: Server;
  let remoteUrl: string;
  let tokenFile: string;

  beforeAll(async () => {
    // A remote that answers as a Scandesk server to the right token.
    remote = createServer((request, response) => {
      const send = (status: number, value: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (request.headers.authorization !== `Bearer ${REMOTE_TOKEN}`) {
        return send(401, { error: { status: 401, code: 'unauthorized', message: 'unknown token', details: [] } });
      }
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (path === '/v1/sync/changes') return send(200, { changes: [], cursor: 'c', more: true, total: 1234 });
      if (path === '/v1/me') return send(200, { id: 'usr_team', name: 'me', created_at: '2026-11-26T00:00:00.000Z' });
      if (path === '/v1/organizations')
        return send(200, { organizations: [{ id: 'o1', name: 'Acme', role: 'admin' }] });
      return send(404, { error: { status: 404, code: 'not_found', message: 'no', details: [] } });
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    server = await startServe({ dataDir: join(makeTempDir(), 'data') });
    tokenFile = join(makeTempDir(), 'remote-token');
    writeFileSync(tokenFile, `${REMOTE_TOKEN}\n`, { mode: 0o600 });
  });
  afterAll(async () => {
    remote.closeAllConnections();
    await new Promise((resolve) => remote.close(resolve));
    await stopServers(server);
  });

  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(['remote', ...args, '--url', server.url], { env: { SCANDESK_TOKEN: server.token, ...env } });

  it('adds a remote with a token file, tests it at once and says what it found', async () => {
    const added = await cli(['add', 'team', remoteUrl, '--token-file', tokenFile]);
    expectExit(added, 0);
    expect(lines(added.stdout)).toEqual([
      `added team (${remoteUrl})`,
      'team: a Scandesk server (user usr_team); 1 organization, 1,234 scans to pull',
    ]);
    const files = readdirSync(join(server.dataDir, 'remotes'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^rmt_.*\.token$/);
  });

  it('lists remotes as a table and as JSON, never with the token', async () => {
    const table = await cli(['list']);
    expectExit(table, 0);
    const [header, row] = lines(table.stdout);
    expect(header?.split(/ {2,}/)).toEqual(['NAME', 'URL', 'KIND', 'BACKGROUND', 'LAST SYNC']);
    expect(row?.split(/ {2,}/)).toEqual(['team', remoteUrl, 'scandesk', 'every 15 min', 'never']);
    const json = await cli(['list', '--json']);
    expectExit(json, 0);
    const { remotes } = JSON.parse(json.stdout) as RemoteList;
    expect(remotes.map((r) => [r.name, r.kind, r.remote_user_id])).toEqual([['team', 'scandesk', 'usr_team']]);
    expect(table.stdout + json.stdout).not.toContain(REMOTE_TOKEN);
  });

  it('tests a remote by name', async () => {
    const tested = await cli(['test', 'team', '--json']);
    expectExit(tested, 0);
    expect(JSON.parse(tested.stdout)).toEqual({
      kind: 'scandesk',
      remote_user_id: 'usr_team',
      organizations: 1,
      scans: 1234,
    });
    const missing = await cli(['test', 'nobody']);
    expectExit(missing, 1);
    expect(missing.stderr).toMatch(/remote not found \(404 not_found\)/);
  });

  it('keeps a remote whose test fails and says why; a remote it cannot reach likewise', async () => {
    const wrong = await cli(['add', 'wrong', remoteUrl, '--token', 'sdt_not-the-one', '--no-background']);
    expectExit(wrong, 1);
    expect(wrong.stdout).toBe(`added wrong (${remoteUrl})\n`);
    expect(wrong.stderr).toMatch(/^error: testing wrong failed: .*refused the token/);
    expect(wrong.stderr).not.toContain('sdt_not-the-one');

    const port = await closedPort();
    const gone = await cli(['add', 'gone', `http://127.0.0.1:${port}`, '--no-background'], {
      SCANDESK_REMOTE_TOKEN: REMOTE_TOKEN,
    });
    expectExit(gone, 1);
    expect(gone.stderr).toMatch(/testing gone failed: cannot reach 127\.0\.0\.1:\d+: the connection was refused/);
    const retest = await cli(['test', 'gone']);
    expectExit(retest, 1);
    expect(retest.stderr).toMatch(/cannot reach .*\(502 bad_gateway\)\n {2}- unreachable\n$/);
  });

  it('adds without a test when asked, the token from the environment', async () => {
    const added = await cli(['add', 'later', 'https://scandesk.invalid/team/', '--no-test', '--interval', '5'], {
      SCANDESK_REMOTE_TOKEN: REMOTE_TOKEN,
    });
    expectExit(added, 0);
    expect(added.stdout).toBe('added later (https://scandesk.invalid/team)\n');
  });

  it("refuses a missing token, two token sources, a bad interval, or a URL the server's rule refuses", async () => {
    expectUsage(await cli(['add', 'x', remoteUrl]), /give the remote's token/);
    expectUsage(await cli(['add', 'x', remoteUrl, '--token', 'a', '--token-file', tokenFile]), /not both/);
    expectUsage(await cli(['add', 'x', remoteUrl, '--token', 'a', '--interval', '0']), /--interval/);
    expectUsage(await cli(['add', 'x', '--token', 'a']), /give NAME and URL/);
    const http = await cli(['add', 'x', 'http://scandesk.example.org', '--token', 'a']);
    expectExit(http, 1);
    expect(http.stderr).toMatch(/url must use https.*\(400 validation_failed\)/);
  });

  it('removes a remote and its token file, and says pulled data stays', async () => {
    const before = JSON.parse((await cli(['list', '--json'])).stdout) as RemoteList;
    const team = before.remotes.find((r) => r.name === 'team')!;
    expect(existsSync(join(server.dataDir, 'remotes', `${team.id}.token`))).toBe(true);
    const removed = await cli(['remove', 'team']);
    expectExit(removed, 0);
    expect(removed.stdout).toBe('removed team; what it pulled stays here\n');
    const { remotes } = JSON.parse((await cli(['list', '--json'])).stdout) as RemoteList;
    expect(remotes.map((r) => r.name)).toEqual(['gone', 'later', 'wrong']);
    expect(existsSync(join(server.dataDir, 'remotes', `${team.id}.token`))).toBe(false);
  });

  it("never writes a remote's token to the server's output", () => {
    expect(server.stdout() + server.stderr()).not.toContain(REMOTE_TOKEN);
    expect(server.stdout() + server.stderr()).not.toContain('sdt_not-the-one');
  });
});
