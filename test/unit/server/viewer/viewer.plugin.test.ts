import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../../../src/main/server/errors';
import { methodNotAllowed } from '../../../../src/main/server/method-not-allowed/method-not-allowed.plugin';
import { viewer } from '../../../../src/main/server/viewer/viewer.plugin';

const INDEX = '<!doctype html><title>Scandesk</title><div id="root"></div>';
let rendererDir: string;
let app: FastifyInstance;

beforeAll(() => {
  rendererDir = mkdtempSync(join(tmpdir(), 'scandesk-viewer-'));
  writeFileSync(join(rendererDir, 'index.html'), INDEX);
  writeFileSync(join(rendererDir, 'app.js'), 'console.log(1);');
});
afterAll(() => rmSync(rendererDir, { recursive: true, force: true }));
afterEach(() => app.close());

async function appServing(dir: string | null): Promise<FastifyInstance> {
  app = Fastify();
  registerErrorHandler(app);
  await app.register(methodNotAllowed);
  app.get('/v1/me', async () => ({ ok: true }));
  await app.register(viewer, { rendererDir: dir });
  await app.ready();
  return app;
}

describe('the viewer plugin', () => {
  it('serves the built renderer: its index at / and its files by name', async () => {
    await appServing(rendererDir);
    const index = await app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toBe(INDEX);
    expect((await app.inject({ method: 'GET', url: '/app.js' })).body).toBe('console.log(1);');
  });

  it('answers a deep link with index.html, for the viewer to route in the browser', async () => {
    await appServing(rendererDir);
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await app.inject({ method, url: '/scans/scan_1?tab=violations' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });

  it('answers 404 in the error shape for a missing file, an unknown API path and other methods', async () => {
    await appServing(rendererDir);
    for (const [method, url] of [
      ['GET', '/missing.js'],
      ['GET', '/v1/nothing'],
      ['POST', '/scans/scan_1'],
    ] as const) {
      const response = await app.inject({ method, url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it('explains at / how to build the viewer when it is not built, and still answers deep links with 404', async () => {
    await appServing(join(rendererDir, 'not-there'));
    const index = await app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('has not been built');
    expect((await app.inject({ method: 'GET', url: '/scans/scan_1' })).statusCode).toBe(404);
  });
});
