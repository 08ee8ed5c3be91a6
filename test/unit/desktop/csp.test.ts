import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/test-app';

// The desktop window shows the served UI: every page and asset must carry the strict CSP.

const INDEX = '<!doctype html><title>Scandesk</title><script type="module" src="/assets/index.js"></script>';

describe('the served UI carries the strict Content-Security-Policy on every response', () => {
  let ctx: TestContext;
  let rendererDir: string;
  beforeAll(async () => {
    rendererDir = mkdtempSync(join(tmpdir(), 'scandesk-renderer-'));
    writeFileSync(join(rendererDir, 'index.html'), INDEX);
    mkdirSync(join(rendererDir, 'assets'));
    writeFileSync(join(rendererDir, 'assets', 'index.js'), 'export {};');
    writeFileSync(join(rendererDir, 'assets', 'index.css'), 'body{}');
    ctx = await createTestContext({ rendererDir });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(rendererDir, { recursive: true, force: true });
  });

  it.each([
    ['/', 200],
    ['/index.html', 200],
    ['/scans/scan_01?tool=x', 200],
    ['/import', 200],
    ['/assets/index.js', 200],
    ['/assets/index.css', 200],
    ['/assets/missing.js', 404],
    [`/?token=sdt_unknown`, 401],
  ])('GET %s', async (url, status) => {
    const response = await ctx.request({ method: 'GET', url, as: null });
    expect(response.statusCode).toBe(status);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('HEAD and the token sign-in redirect carry it too', async () => {
    for (const response of [
      await ctx.request({ method: 'HEAD', url: '/scans', as: null }),
      await ctx.request({ method: 'GET', url: `/?token=${ctx.owner.token}`, as: null }),
    ]) {
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });

  it('API answers and refusals are never sniffed or framed; nothing pins HTTPS on a loopback server', async () => {
    for (const response of [
      await ctx.request({ method: 'GET', url: '/v1/me' }),
      await ctx.request({ method: 'GET', url: '/v1/me', as: null }),
      await ctx.request({ method: 'GET', url: '/', as: null }),
    ]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(String(response.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
    }
  });
});
