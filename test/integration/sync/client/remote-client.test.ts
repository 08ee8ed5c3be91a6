import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { createServer as createPlainServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteClient, type RemoteClientOptions } from '../../../../src/main/sync/client/remote-client';
import {
  RemoteBroken,
  RemoteRefused,
  RemoteUnreachable,
  RemoteUntrusted,
} from '../../../../src/main/sync/client/remote-errors';
import { privateCa, type PrivateCa } from '../../../helpers/private-ca';

const TOKEN = 'sdt_remote-secret-token';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** One https server whose routes the tests set; every request must carry the bearer token. */
async function startRemote(ca: PrivateCa, routes: Record<string, Handler>): Promise<{ url: string; server: Server }> {
  const server = createServer({ key: ca.key, cert: ca.cert }, (request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (request.headers.authorization !== `Bearer ${TOKEN}`) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { status: 401, code: 'unauthorized', message: 'no', details: [] } }));
        return;
      }
      const path = new URL(request.url ?? '/', 'https://x').pathname;
      const route = routes[`${request.method} ${path}`];
      if (!route) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { status: 404, code: 'not_found', message: 'nothing', details: [] } }));
        return;
      }
      route(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const json = (status: number, value: unknown, headers: Record<string, string> = {}): Handler => {
  return (_request, _body, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(value));
  };
};

describe('RemoteClient', () => {
  let ca: PrivateCa;
  let remote: { url: string; server: Server };
  let work: string;
  const seen: { url: string; userAgent: string | undefined }[] = [];
  const open = new Set<ServerResponse>();

  beforeAll(async () => {
    ca = privateCa();
    work = mkdtempSync(join(tmpdir(), 'scandesk-remote-client-'));
    remote = await startRemote(ca, {
      'GET /v1/sync/changes': (request, _body, response) => {
        seen.push({ url: request.url ?? '', userAgent: request.headers['user-agent'] });
        json(200, { changes: [], cursor: 'c', more: false, total: 7 })(request, '', response);
      },
      'GET /team/v1/organizations': json(200, { organizations: [{ id: 'o1', name: 'Acme', role: 'owner' }] }),
      'GET /team/v1/sync/changes': json(404, { error: { status: 404, code: 'not_found', message: 'no', details: [] } }),
      'GET /v1/conflict': json(409, {
        error: { status: 409, code: 'conflict', message: 'a concurrent change won', details: [] },
      }),
      'GET /v1/plain-error': (_request, _body, response) => {
        response.writeHead(500, { 'content-type': 'text/html' });
        response.end('<h1>oops</h1>');
      },
      'GET /v1/gateway': (_request, _body, response) => {
        response.writeHead(502);
        response.end();
      },
      'GET /v1/moved': (_request, _body, response) => {
        response.writeHead(301, { location: 'https://elsewhere.example.org/' });
        response.end();
      },
      'GET /v1/not-json': (_request, _body, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"cut');
      },
      'GET /v1/big': (_request, _body, response) => {
        // No Content-Length: the cap must bind on the bytes read, not on a declared size.
        response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
        response.write(`"${'x'.repeat(600)}`);
        response.end(`${'y'.repeat(600)}"`);
      },
      'GET /v1/never': (_request, _body, response) => {
        open.add(response);
      },
      'GET /v1/stalls': (_request, _body, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"a":');
        open.add(response);
      },
      'POST /v1/scans': (request, body, response) => {
        const replay = request.headers['idempotency-key'] === 'push:again';
        response.writeHead(replay ? 200 : 201, {
          'content-type': 'application/json',
          ...(replay ? { 'idempotent-replayed': 'true' } : {}),
        });
        response.end(JSON.stringify({ id: 'scan_remote', echoed: JSON.parse(body) as unknown }));
      },
      'GET /v1/chunked-package': (_request, _body, response) => {
        // No Content-Length: only the bytes counted as they come can stop it.
        response.writeHead(200, { 'content-type': 'application/zip', 'transfer-encoding': 'chunked' });
        response.write(Buffer.alloc(1500, 1));
        response.end(Buffer.alloc(1500, 2));
      },
      'GET /v1/endless-package': (_request, _body, response) => {
        response.writeHead(200, { 'content-type': 'application/zip', 'transfer-encoding': 'chunked' });
        response.write(Buffer.alloc(100, 1));
        open.add(response);
      },
      'POST /v1/evidence/exports': (_request, body, response) => {
        const ids = (JSON.parse(body) as { scan_ids: string[] }).scan_ids;
        response.writeHead(200, { 'content-type': 'application/zip' });
        response.end(Buffer.alloc(ids.length * 1000, 7));
      },
    });
  });
  afterAll(async () => {
    for (const response of open) response.destroy();
    remote.server.closeAllConnections();
    await new Promise((resolve) => remote.server.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  const client = (options: Partial<RemoteClientOptions> = {}): RemoteClient =>
    new RemoteClient({ url: remote.url, token: TOKEN, caPem: ca.caPem, ...options });

  /** The client's call, its error, and the client closed however it went. */
  async function failure(options: Partial<RemoteClientOptions>, call: (c: RemoteClient) => Promise<unknown>) {
    const c = client(options);
    try {
      await call(c);
    } catch (error) {
      return error as Error;
    } finally {
      await c.destroy();
    }
    throw new Error('the call succeeded');
  }

  it('trusts a private CA given as ca_pem, sends the token and a query, and reads JSON', async () => {
    const c = client();
    expect(await c.getJson('/v1/sync/changes', { limit: 1, cursor: undefined })).toEqual({
      changes: [],
      cursor: 'c',
      more: false,
      total: 7,
    });
    await c.close();
    expect(seen.at(-1)?.url).toBe('/v1/sync/changes?limit=1');
    expect(seen.at(-1)?.userAgent).toMatch(/^scandesk\//);
  });

  it('refuses the same server without its CA: RemoteUntrusted, saying to pass --ca', async () => {
    const error = await failure({ caPem: null }, (c) => c.getJson('/v1/sync/changes'));
    expect(error).toBeInstanceOf(RemoteUntrusted);
    expect(error.message).toMatch(/not trusted.*--ca/);
  });

  it('refuses a certificate from another CA even when given one', async () => {
    const error = await failure({ caPem: privateCa().caPem }, (c) => c.getJson('/v1/sync/changes'));
    expect(error).toBeInstanceOf(RemoteUntrusted);
  });

  it('says the token was refused on a 401, and never puts the token in a message', async () => {
    const error = await failure({ token: 'sdt_wrong' }, (c) => c.getJson('/v1/sync/changes'));
    expect(error).toBeInstanceOf(RemoteRefused);
    expect((error as RemoteRefused).status).toBe(401);
    expect(error.message).toMatch(/refused the token/);
    expect(error.message).not.toContain('sdt_wrong');
  });

  it("carries the remote's status, code and message when its error has our shape", async () => {
    const error = (await failure({}, (c) => c.getJson('/v1/conflict'))) as RemoteRefused;
    expect(error).toBeInstanceOf(RemoteRefused);
    expect([error.status, error.code, error.remoteMessage]).toEqual([409, 'conflict', 'a concurrent change won']);
    expect(error.message).toMatch(/HTTP 409: a concurrent change won/);
    const plain = (await failure({}, (c) => c.getJson('/v1/plain-error'))) as RemoteRefused;
    expect([plain.status, plain.code]).toEqual([500, undefined]);
    expect(plain.message).toMatch(/HTTP 500$/);
  });

  it('takes a gateway error for an unreachable remote, and a redirect for a refusal naming it', async () => {
    expect(await failure({}, (c) => c.getJson('/v1/gateway'))).toBeInstanceOf(RemoteUnreachable);
    const moved = await failure({}, (c) => c.getJson('/v1/moved'));
    expect(moved).toBeInstanceOf(RemoteRefused);
    expect(moved.message).toMatch(/redirect/);
  });

  it('refuses bad JSON and a body over the cap as RemoteBroken', async () => {
    expect(await failure({}, (c) => c.getJson('/v1/not-json'))).toBeInstanceOf(RemoteBroken);
    const big = await failure({ jsonMaxBytes: 1000 }, (c) => c.getJson('/v1/big'));
    expect(big).toBeInstanceOf(RemoteBroken);
    expect(big.message).toMatch(/larger than 1000 bytes/);
    // The same answer fits a larger cap.
    const c = client({ jsonMaxBytes: 2000 });
    expect(((await c.getJson('/v1/big')) as string).length).toBe(1200);
    await c.close();
  });

  it('refuses an answer of the wrong shape as RemoteBroken', async () => {
    const isList = (value: unknown): value is unknown[] => Array.isArray(value);
    expect(await failure({}, (c) => c.getJson('/v1/sync/changes', {}, isList))).toBeInstanceOf(RemoteBroken);
  });

  it('gives up on a server that never answers, or stops mid-body, as RemoteUnreachable', async () => {
    const never = await failure({ timeouts: { headersMs: 300 } }, (c) => c.getJson('/v1/never'));
    expect(never).toBeInstanceOf(RemoteUnreachable);
    expect(never.message).toMatch(/did not answer in time/);
    const stalls = await failure({ timeouts: { bodyMs: 300 } }, (c) => c.getJson('/v1/stalls'));
    expect(stalls).toBeInstanceOf(RemoteUnreachable);
    // However slowly headers and chunks come, the whole request has a deadline.
    const total = await failure({ timeouts: { jsonTotalMs: 300 } }, (c) => c.getJson('/v1/stalls'));
    expect(total).toBeInstanceOf(RemoteUnreachable);
  });

  it('says a closed port and an unknown name are unreachable', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createPlainServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const refused = await failure({ url: `https://127.0.0.1:${port}` }, (c) => c.getJson('/v1/sync/changes'));
    expect(refused).toBeInstanceOf(RemoteUnreachable);
    expect(refused.message).toMatch(/connection was refused/);
    const unknown = await failure({ url: 'https://scandesk.invalid' }, (c) => c.getJson('/v1/x'));
    expect(unknown).toBeInstanceOf(RemoteUnreachable);
  });

  it('posts JSON with headers and answers the status, body and headers', async () => {
    const c = client();
    const first = await c.postJson<{ id: string; echoed: unknown }>(
      '/v1/scans',
      { tool: 't' },
      {
        'idempotency-key': 'push:1',
      },
    );
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: 'scan_remote', echoed: { tool: 't' } });
    const again = await c.postJson('/v1/scans', { tool: 't' }, { 'idempotency-key': 'push:again' });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await c.close();
  });

  it('downloads to a file with progress, and removes the file when the body is over its cap', async () => {
    const c = client();
    const file = join(work, 'package.zip');
    const progress: number[] = [];
    const done = await c.download('POST', '/v1/evidence/exports', { scan_ids: ['a', 'b'] }, file, {
      maxBytes: 2000,
      onBytes: (bytes) => progress.push(bytes),
    });
    expect(done.bytes).toBe(2000);
    expect(readFileSync(file).length).toBe(2000);
    expect(progress.at(-1)).toBe(2000);
    const over = await c
      .download('POST', '/v1/evidence/exports', { scan_ids: ['a', 'b', 'c'] }, file, { maxBytes: 2000 })
      .catch((error: unknown) => error);
    expect(over).toBeInstanceOf(RemoteBroken);
    expect(existsSync(file)).toBe(false);
    await c.close();
  });

  it('stops a download without a declared length at its cap, and one that is aborted, removing the file', async () => {
    const c = client();
    const file = join(work, 'streamed.zip');
    const over = await c
      .download('GET', '/v1/chunked-package', undefined, file, { maxBytes: 2000 })
      .catch((error: unknown) => error);
    expect(over).toBeInstanceOf(RemoteBroken);
    expect((over as Error).message).toMatch(/larger than 2000 bytes/);
    expect(existsSync(file)).toBe(false);
    expect((await c.download('GET', '/v1/chunked-package', undefined, file, { maxBytes: 3000 })).bytes).toBe(3000);

    const controller = new AbortController();
    const aborted = c
      .download('GET', '/v1/endless-package', undefined, file, {
        maxBytes: 1_000_000,
        signal: controller.signal,
        // Aborted once the first bytes are in the file's stream: the run was cancelled mid-download.
        onBytes: () => controller.abort(),
      })
      .catch((error: unknown) => error);
    const error = await aborted;
    expect(error).toBeInstanceOf(RemoteUnreachable);
    expect((error as Error).message).toMatch(/cancelled/);
    expect(existsSync(file)).toBe(false);
    await c.destroy();
  });

  describe('probeKind', () => {
    it('finds a Scandesk server by its change feed', async () => {
      const c = client();
      expect(await c.probeKind()).toEqual({ kind: 'scandesk', scans: 7 });
      await c.close();
    });

    it('finds an upstream server (under a path prefix) by its organizations when there is no feed', async () => {
      const c = client({ url: `${remote.url}/team` });
      expect(await c.probeKind()).toEqual({ kind: 'upstream' });
      await c.close();
    });

    it('says a server with neither is not one it can sync with', async () => {
      const error = await failure({ url: `${remote.url}/elsewhere` }, (c) => c.probeKind());
      expect(error).toBeInstanceOf(RemoteBroken);
      expect(error.message).toMatch(/not a Scandesk server/);
    });

    it('says a refused token is refused', async () => {
      const error = await failure({ token: 'sdt_wrong' }, (c) => c.probeKind());
      expect(error).toBeInstanceOf(RemoteRefused);
      expect(error.message).toMatch(/refused the token/);
    });
  });
});
