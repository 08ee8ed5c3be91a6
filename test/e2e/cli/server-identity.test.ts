import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverKeyFile } from '../../../src/main/workspace/data-dir';
import { lines } from '../../helpers/cli-output';
import { cleanupProcesses, makeTempDir, runCli, startServe, type ServeProcess } from '../../helpers/serve-process';

// docs/security.md, Server identity: a token the CLI reads from a data directory goes only to a
// server that proves it holds that directory's key. Whatever else listens where the CLI looks
// (any process on the default port) never receives it.

interface Squatter {
  url: string;
  seen: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A local HTTP server recording every request; `answer` decides what it sends back. */
async function squatter(
  answer: (url: string, reply: (status: number, body: unknown) => void) => void,
  at: { host: string; port: number } = { host: '127.0.0.1', port: 0 },
): Promise<Squatter> {
  const seen: Squatter['seen'] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    answer(request.url ?? '', (status, body) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://${at.host.includes(':') ? `[${at.host}]` : at.host}:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the CLI checks the server before it sends a token from a data directory', () => {
  let real: ServeProcess;
  const squatters: Squatter[] = [];
  beforeAll(async () => {
    real = await startServe({ dataDir: join(makeTempDir(), 'data') });
  });
  afterAll(async () => {
    await Promise.all(squatters.map((s) => s.close()));
    await cleanupProcesses();
  });

  const fromDataDir = (url: string) =>
    runCli(['orgs', 'list', '--url', url], { env: { SCANDESK_DATA_DIR: real.dataDir } });

  function expectRefused(result: Awaited<ReturnType<typeof fromDataDir>>, squatted: Squatter): void {
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain(`the server at ${squatted.url} is not this workspace's Scandesk`);
    expect(result.stderr).toContain('refusing to send it the token');
    expect(squatted.seen.length).toBeGreaterThan(0);
    for (const request of squatted.seen) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.url).toMatch(/^\/v1\/identity\?challenge=[0-9a-f]{64}$/);
    }
  }

  it('sends it to its own server, which proves the key, by address or as localhost', async () => {
    for (const url of [real.url, `http://localhost:${real.port}`]) {
      const result = await fromDataDir(url);
      expect(result.code, result.stderr).toBe(0);
    }
  });

  it('refuses a squatter that does not know the endpoint, or answers a made-up proof', async () => {
    const unknowing = await squatter((_url, reply) => reply(404, { error: 'not found' }));
    const bluffing = await squatter((_url, reply) => reply(200, { proof: '0'.repeat(64), organizations: [] }));
    squatters.push(unknowing, bluffing);
    expectRefused(await fromDataDir(unknowing.url), unknowing);
    expectRefused(await fromDataDir(bluffing.url), bluffing);
  });

  /**
   * A squatter that passes /v1/identity on to the real server with the Host it accepts: the proof
   * it gets back is genuine, but names the real server's socket, not the one the CLI reached.
   */
  const relayTo = (relayed: number[], at?: { host: string; port: number }) =>
    squatter((url, reply) => {
      const forwarded = httpRequest(`${real.url}${url}`, { headers: { host: `127.0.0.1:${real.port}` } }, (answer) => {
        let body = '';
        answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
        answer.on('end', () => {
          relayed.push(answer.statusCode ?? 0);
          reply(answer.statusCode ?? 502, JSON.parse(body || 'null'));
        });
      });
      forwarded.end();
    }, at);

  it('refuses a squatter that relays the challenge to the real server and passes its answer on', async () => {
    const relayed: number[] = [];
    const relay = await relayTo(relayed);
    squatters.push(relay);
    const result = await fromDataDir(relay.url);
    expect(relayed).toEqual([200]);
    expectRefused(result, relay);
  });

  it('refuses a relay on another loopback address with the same port', async (context) => {
    const relayed: number[] = [];
    let relay: Squatter;
    try {
      relay = await relayTo(relayed, { host: '::1', port: real.port });
    } catch {
      context.skip(); // no IPv6 loopback on this machine
      return;
    }
    squatters.push(relay);
    const result = await fromDataDir(relay.url);
    expect(relayed).toEqual([200]);
    expectRefused(result, relay);
  });

  it('sends a token given explicitly where it is told, without asking', async () => {
    const listening = await squatter((_url, reply) => reply(200, { organizations: [] }));
    squatters.push(listening);
    const result = await runCli(['orgs', 'list', '--url', listening.url, '--token', real.token]);
    expect(result.code, result.stderr).toBe(0);
    expect(listening.seen.map((request) => request.url)).toEqual(['/v1/organizations']);
    expect(listening.seen[0]!.headers.authorization).toBe(`Bearer ${real.token}`);
  });

  it('names the missing key of a store no server of this version has opened', async () => {
    const listening = await squatter((_url, reply) => reply(404, {}));
    squatters.push(listening);
    rmSync(serverKeyFile(real.dataDir));
    const result = await fromDataDir(listening.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${serverKeyFile(real.dataDir)} is missing`);
    expect(listening.seen).toEqual([]);
  });
});
