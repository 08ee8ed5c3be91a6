import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// What the desktop app loads: the main bundle, a sandbox-loadable preload and the renderer. A
// sandboxed preload can require only a few built-ins (electron among them), never another file.

const root = join(import.meta.dirname, '../..');
const out = join(root, 'out');

describe('npx electron-vite build output', () => {
  beforeAll(() => {
    // `npm test` builds out/ once for this test and the Playwright suites, and says so.
    if (process.env.SCANDESK_BUILT_OUT === '1') return;
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'pipe', timeout: 170_000 });
  }, 180_000);

  it('has the main bundle and the renderer', () => {
    expect(existsSync(join(out, 'main', 'index.js'))).toBe(true);
    expect(existsSync(join(out, 'renderer', 'index.html'))).toBe(true);
  });

  it('has ONE CommonJS preload that requires electron only', () => {
    expect(readdirSync(join(out, 'preload')).filter((name) => /\.(c|m)?js$/.test(name))).toEqual(['index.cjs']);
    const preload = readFileSync(join(out, 'preload', 'index.cjs'), 'utf8');
    expect(preload).not.toMatch(/^\s*import\s/m);
    expect(preload).not.toMatch(/require\(\s*["']\.\.?\//);
    const required = [...preload.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(preload).toContain('exposeInMainWorld');
    expect(preload).toContain('scandesk:import-evidence');
  });
});
