import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../../../src/main/server/errors';
import { methodNotAllowed } from '../../../../src/main/server/method-not-allowed/method-not-allowed.plugin';
import { viewer } from '../../../../src/main/server/viewer/viewer.plugin';

const INDEX = '<!doctype html><title>Scandesk</title><div id="root"></div>';
const ASSET = 'export const answer = 42;\n'.repeat(50);
let rendererDir: string;
let app: FastifyInstance;

beforeAll(() => {
  rendererDir = mkdtempSync(join(tmpdir(), 'scandesk-viewer-'));
  writeFileSync(join(rendererDir, 'index.html'), INDEX);
  writeFileSync(join(rendererDir, 'app.js'), 'console.log(1);');
  // As the build leaves them: a hashed asset with both variants, index.html with brotli only.
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'page-Ab12.js'), ASSET);
  writeFileSync(join(rendererDir, 'assets', 'page-Ab12.js.br'), brotliCompressSync(ASSET));
  writeFileSync(join(rendererDir, 'assets', 'page-Ab12.js.gz'), gzipSync(ASSET));
  writeFileSync(join(rendererDir, 'index.html.br'), brotliCompressSync(INDEX));
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

  it("sends the build's variant that Accept-Encoding prefers, else the file itself", async () => {
    await appServing(rendererDir);
    const url = '/assets/page-Ab12.js';
    const get = (acceptEncoding?: string) =>
      app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe((await get()).headers['content-type']);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(ASSET);

    for (const header of ['gzip', 'br;q=0.5, gzip', '*']) {
      const gz = await get(header);
      expect(gz.headers['content-encoding'], header).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(ASSET);
    }
    for (const header of [undefined, 'identity', 'zstd']) {
      const plain = await get(header);
      expect(plain.headers['content-encoding'], header).toBeUndefined();
      expect(plain.body).toBe(ASSET);
    }
    for (const response of [br, await get()]) expect(response.headers.vary).toBe('Accept-Encoding');

    // index.html has a brotli variant only: gzip falls back to the file itself.
    expect((await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } })).body).toBe(INDEX);
    const deepLink = await app.inject({ method: 'GET', url: '/scans/scan_1', headers: { 'accept-encoding': 'br' } });
    expect(deepLink.headers['content-encoding']).toBe('br');
    expect(deepLink.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(brotliDecompressSync(deepLink.rawPayload).toString()).toBe(INDEX);
  });

  it('keeps hashed assets for a year and has index.html revalidated by its ETag', async () => {
    await appServing(rendererDir);
    const asset = await app.inject({
      method: 'GET',
      url: '/assets/page-Ab12.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    for (const url of ['/', '/index.html', '/scans/scan_1', '/app.js']) {
      const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers.etag, url).toMatch(/^W\/"/);
      const again = await app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': 'br', 'if-none-match': String(response.headers.etag) },
      });
      expect(again.statusCode, url).toBe(304);
      expect(again.rawPayload.length, url).toBe(0);
      expect(again.headers['cache-control'], url).toBe('no-cache');
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
