import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../../../src/main/server/errors';
import { methodNotAllowed } from '../../../../src/main/server/method-not-allowed/method-not-allowed.plugin';
import { requestGuards } from '../../../../src/main/server/request-guards/request-guards.plugin';

let app: FastifyInstance;
/** Whether a handler, or a body parser, was reached. */
let reached: string[];

async function guardedApp(port: number | null = 4790): Promise<FastifyInstance> {
  reached = [];
  app = Fastify();
  registerErrorHandler(app);
  await app.register(methodNotAllowed);
  await app.register(requestGuards, { allowHosts: ['scandesk.internal'], port: () => port, trustProxy: false });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    reached.push('body');
    done(null, JSON.parse(body as string));
  });
  app.post('/v1/things', async () => (reached.push('handler'), { ok: true }));
  app.get('/v1/public', { config: { public: true } }, async () => ({ ok: true }));
  app.get('/page', async () => 'page');
  await app.ready();
  return app;
}

const OURS = { host: '127.0.0.1:4790' };

/** The status of a GET sent as is: an injected request's target is normalised first, `..` taken out. */
function rawGet(port: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString())?.[1])));
  });
}

afterEach(() => app.close());

describe('the request-guards plugin', () => {
  it('lets a request for our own host and origin through, with the security headers', async () => {
    await guardedApp();
    const response = await app.inject({ method: 'POST', url: '/v1/things', headers: OURS, payload: {} });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(reached).toEqual(['body', 'handler']);
  });

  it('refuses another Host or a cross-site Origin with 403 before the body is read, headers still set', async () => {
    await guardedApp();
    for (const headers of [
      { host: 'evil.example:4790' },
      { host: '127.0.0.1:5000' },
      { ...OURS, origin: 'http://evil.example' },
      { ...OURS, 'sec-fetch-site': 'cross-site' },
    ]) {
      const response = await app.inject({ method: 'POST', url: '/v1/things', headers, payload: '{' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: { code: 'forbidden' } });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(
      (await app.inject({ method: 'GET', url: '/page', headers: { host: 'scandesk.internal:4790' } })).statusCode,
    ).toBe(200);
    expect(reached).toEqual([]);
  });

  it('answers a method nothing here takes with 405 and the Allow list', async () => {
    await guardedApp();
    const api = await app.inject({ method: 'PROPFIND', url: '/v1/things', headers: OURS });
    expect(api.statusCode).toBe(405);
    expect(api.headers.allow).toBe('POST');
    const page = await app.inject({ method: 'PROPFIND', url: '/page', headers: OURS });
    expect(page.headers.allow).toBe('GET, HEAD');
  });

  it('refuses ".." segments and NUL characters in the decoded path with 400', async () => {
    await guardedApp(null);
    const nul = await app.inject({ method: 'GET', url: '/scans/%00', headers: OURS });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ error: { code: 'validation_failed', details: [{ field: 'path' }] } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    for (const target of ['/v1/../things', '/v1/%2e%2e/things', '/a/%2E%2E/b', '/page%00']) {
      expect(await rawGet(port, target), target).toBe(400);
    }
  });

  it("refuses an API request another origin's page made (Fetch Metadata), unless the route is public", async () => {
    await guardedApp();
    const headers = { ...OURS, 'sec-fetch-site': 'same-site' };
    const refused = await app.inject({ method: 'POST', url: '/v1/things', headers, payload: {} });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { message: 'requests from other origins are refused' } });
    expect((await app.inject({ method: 'GET', url: '/v1/public', headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/page', headers })).statusCode).toBe(200);
  });
});
