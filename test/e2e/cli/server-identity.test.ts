import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverKeyFile } from '../../../src/main/workspace/data-dir';
import { lines } from '../../helpers/cli-output';
import { cleanupProcesses, makeTempDir, runCli, startServe, type ServeProcess } from '../../helpers/serve-process';

// docs/security.md, Server identity: a token the CLI reads from a data directory goes only to a
// server that proves it holds that directory's key. Whatever else listens where the CLI looks
// (issue 15: "whatever listens on the default port") never receives it.

interface Squatter {
  url: string;
  seen: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A local HTTP server recording every request; `answer` decides what it sends back. */
async function squatter(
  answer: (url: string, reply: (status: number, body: unknown) => void) => void,
): Promise<Squatter> {
  const seen: Squatter['seen'] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    answer(request.url ?? '', (status, body) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
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

  it('sends it to its own server, which proves the key', async () => {
    const result = await fromDataDir(real.url);
    expect(result.code, result.stderr).toBe(0);
  });

  it('refuses a squatter that does not know the endpoint, or answers a made-up proof', async () => {
    const unknowing = await squatter((_url, reply) => reply(404, { error: 'not found' }));
    const bluffing = await squatter((_url, reply) => reply(200, { proof: '0'.repeat(64), organizations: [] }));
    squatters.push(unknowing, bluffing);
    expectRefused(await fromDataDir(unknowing.url), unknowing);
    expectRefused(await fromDataDir(bluffing.url), bluffing);
  });

  it('refuses a squatter that relays the challenge to the real server and passes its answer on', async () => {
    const relayed: number[] = [];
    const relay = await squatter((url, reply) => {
      // The real server accepts only its own Host; a relay can send that. The proof still names
      // the real server's port, not the one the CLI asked.
      const forwarded = httpRequest(`${real.url}${url}`, { headers: { host: `127.0.0.1:${real.port}` } }, (answer) => {
        let body = '';
        answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
        answer.on('end', () => {
          relayed.push(answer.statusCode ?? 0);
          reply(answer.statusCode ?? 502, JSON.parse(body || 'null'));
        });
      });
      forwarded.end();
    });
    squatters.push(relay);
    const result = await fromDataDir(relay.url);
    // The real server did answer with a proof: only the port it covers gives the relay away.
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
