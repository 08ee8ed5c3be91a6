import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext } from '../../helpers/test-app';

// The auth decision must see the path the router sees (docs/contract/auth.md#host-and-origin, docs/security.md): these
// targets once reached routes without a token, spooled bodies first, or answered 500.

/** Sends one raw HTTP/1.1 request (absolute-form targets and odd methods need a real socket). */
function rawRequest(port: number, head: string, body = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), text });
    });
  });
}

describe('requests are judged on the decoded path, before any body is read', () => {
  let ctx: TestContext;
  let rendererDir: string;
  // This app's own spool directory: imports of tests running beside this one spool to the shared one.
  let spoolDir: string;
  let port: number;
  const spooledImports = (): string[] => readdirSync(spoolDir).filter((name) => name.startsWith('scandesk-import-'));
  beforeAll(async () => {
    rendererDir = mkdtempSync(join(tmpdir(), 'scandesk-renderer-'));
    spoolDir = mkdtempSync(join(tmpdir(), 'scandesk-spool-'));
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Scandesk</title>');
    ctx = await createTestContext({ rendererDir, importLimits: { spoolDir } });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as { port: number }).port;
  });
  // Once listening, the server checks the Host's port too.
  const request: TestContext['request'] = ({ headers, ...rest }) =>
    ctx.request({ ...rest, headers: { host: `127.0.0.1:${port}`, ...headers } });
  afterAll(async () => {
    await ctx.close();
    rmSync(rendererDir, { recursive: true, force: true });
    rmSync(spoolDir, { recursive: true, force: true });
  });

  it('an encoded /v1 path needs a token like the plain one', async () => {
    for (const url of ['/%761/openapi.json', '/%76%31/me', '/v%31/scans']) {
      expectError(await request({ method: 'GET', url, as: null }), 401, 'unauthorized');
    }
    expect((await request({ method: 'GET', url: '/%761/me' })).statusCode).toBe(200);
  });

  it('an absolute-form target needs a token like the plain one', async () => {
    const host = `Host: 127.0.0.1:${port}`;
    const anonymous = await rawRequest(port, `GET http://x/v1/me HTTP/1.1\r\n${host}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toContain('"code":"unauthorized"');
    const owner = await rawRequest(
      port,
      `GET http://x/v1/me HTTP/1.1\r\n${host}\r\nAuthorization: Bearer ${ctx.owner.token}`,
    );
    expect(owner.status).toBe(200);
  });

  it('refuses an unauthenticated import with 401 before spooling its body', async () => {
    const before = spooledImports();
    const body = Buffer.alloc(20 * 1024 * 1024, 0x41);
    for (const url of ['/%761/evidence/imports', '/v1/evidence/imports']) {
      const response = await request({
        method: 'POST',
        url,
        as: null,
        headers: { 'content-type': 'application/zip' },
        payload: body,
      });
      expectError(response, 401, 'unauthorized');
    }
    expect(spooledImports()).toEqual(before);
  });

  it('refuses an unauthenticated JSON body with 401 without parsing it', async () => {
    const nested = '['.repeat(8 * 1024 * 1024);
    const response = await request({
      method: 'POST',
      url: '/%761/scans',
      as: null,
      headers: { 'content-type': 'application/json' },
      payload: nested,
    });
    expectError(response, 401, 'unauthorized');
  });

  it('answers a method the server does not know with 405 and Allow, never 500', async () => {
    for (const auth of ['', `\r\nAuthorization: Bearer ${ctx.owner.token}`]) {
      const api = await rawRequest(port, `QUERY /v1/me HTTP/1.1\r\nHost: 127.0.0.1:${port}${auth}`);
      expect(api.status).toBe(405);
      expect(api.text).toMatch(/\r\nallow: GET, HEAD\r\n/i);
      expect(api.text).toContain('"code":"method_not_allowed"');
    }
    const page = await rawRequest(port, `QUERY / HTTP/1.1\r\nHost: 127.0.0.1:${port}`);
    expect(page.status).toBe(405);
  });

  it('answers bad static paths with 400 or 404 in the contract shape, never 500', async () => {
    for (const url of ['/%2e%2e/etc/passwd', '/%2e%2e%2f%2e%2e%2fetc/passwd', '/%00', '/assets/%00.js', '/x%00']) {
      const response = await rawRequest(port, `GET ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}`);
      expect([400, 404], `${url}: ${response.text}`).toContain(response.status);
      expect(response.text).toMatch(/"code":"(validation_failed|not_found)"/);
    }
  });
});
