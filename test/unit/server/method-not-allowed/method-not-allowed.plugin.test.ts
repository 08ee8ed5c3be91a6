import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../../../src/main/server/errors';
import { methodNotAllowed } from '../../../../src/main/server/method-not-allowed/method-not-allowed.plugin';
import { viewer } from '../../../../src/main/server/viewer/viewer.plugin';

let app: FastifyInstance;

async function appWithRoutes(rendererDir?: string): Promise<FastifyInstance> {
  app = Fastify();
  registerErrorHandler(app);
  await app.register(methodNotAllowed);
  app.get('/v1/things/:id', async () => ({ ok: true }));
  app.delete('/v1/things/:id', async () => null);
  app.post('/v1/things', async () => ({ ok: true }));
  app.get('/page', async () => 'a page outside the API');
  // The viewer's not-found handler is where a request no route took asks for its 405.
  await app.register(viewer, { rendererDir: rendererDir ?? null });
  await app.ready();
  return app;
}

afterEach(() => app.close());

describe('the method-not-allowed plugin', () => {
  it('answers a method an API path does not take with 405 and the methods it does take', async () => {
    const response = await (await appWithRoutes()).inject({ method: 'PUT', url: '/v1/things/t1' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, DELETE');
    expect(response.json()).toMatchObject({
      error: {
        status: 405,
        code: 'method_not_allowed',
        message: 'PUT is not allowed on /v1/things/t1; use GET, HEAD, DELETE',
      },
    });
  });

  it('answers 405 rather than 415 for a body of a type nobody reads', async () => {
    const response = await (
      await appWithRoutes()
    ).inject({
      method: 'PATCH',
      url: '/v1/things',
      headers: { 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
  });

  it('leaves a path no route has, and every route outside the API, to the not-found handler', async () => {
    await appWithRoutes();
    expect((await app.inject({ method: 'GET', url: '/v1/nothing' })).statusCode).toBe(404);
    const outside = await app.inject({ method: 'POST', url: '/page' });
    expect(outside.statusCode).toBe(404);
    expect(outside.headers.allow).toBeUndefined();
  });

  it('gives the guards the refusal for any method: an API path its own methods, any other GET and HEAD', async () => {
    await appWithRoutes();
    expect(app.methodNotAllowed('PROPFIND', '/v1/things/t1').headers).toEqual({ Allow: 'GET, HEAD, DELETE' });
    expect(app.methodNotAllowed('PROPFIND', '/scans/s1').headers).toEqual({ Allow: 'GET, HEAD' });
  });

  it("answers 405 too where the viewer's files, which take every GET, have no such file", async () => {
    const rendererDir = mkdtempSync(join(tmpdir(), 'scandesk-viewer-'));
    try {
      writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
      await appWithRoutes(rendererDir);
      const response = await app.inject({ method: 'GET', url: '/v1/things' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('POST');
      expect((await app.inject({ method: 'GET', url: '/scans/s1' })).statusCode).toBe(200);
    } finally {
      rmSync(rendererDir, { recursive: true, force: true });
    }
  });
});
