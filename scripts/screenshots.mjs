#!/usr/bin/env node
// `npm run screenshots`: retakes the README's screenshots (docs/screenshots/*.png) from the built viewer.
// It starts its own servers on free ports: a demo workspace (fixed seed and clock, so the overview and the
// scans list come out the same every time) and an empty one (what a first visit shows). The browser
// is pinned to UTC, en-US, the light theme and 1400×900, so that a retake differs only where the viewer does.
// The viewer must be built (`npm run build`, or SCANDESK_RENDERER_DIR naming another build).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'docs', 'screenshots');
const CHROMIUM = process.env.SCANDESK_CHROMIUM ?? '/usr/bin/chromium';
const DEMO = { scans: 20_000, seed: 7, now: '2026-11-20T12:00:00.000Z' };
const VIEWPORT = { width: 1400, height: 900 };
const MINUTE_MS = 60_000;

// The servers get our environment without the developer's SCANDESK_* settings (a database URL would
// point them at another store), but with the renderer build to show.
const serverEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('SCANDESK_') || key === 'SCANDESK_RENDERER_DIR'),
);
const tempDirs = [];
const servers = [];

function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function scandesk(args) {
  const result = spawnSync(process.execPath, [join(root, 'bin', 'scandesk.js'), ...args], {
    cwd: root,
    env: serverEnv,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`scandesk ${args[0]} failed:\n${result.stderr}`);
}

/** `scandesk serve` on a free port over `dataDir`; resolves once it listens. */
async function serve(dataDir) {
  const child = spawn(
    process.execPath,
    [join(root, 'bin', 'scandesk.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
    { cwd: root, env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  servers.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`scandesk serve did not start in 30 s:\n${stderr}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`scandesk serve exited with ${code}:\n${stderr}`)));
  });
  return { url, token: readFileSync(join(dataDir, 'token'), 'utf8').trim() };
}

async function api(server, method, path, body) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${await response.text()}`);
  return response.json();
}

/**
 * An agent session in Helix Robotics, whose policy blocks `shell.exec` and caps a scan at 250,000
 * tokens: 57 blocked shell commands (one violation each) and one scan over the cap, 58 in all. This
 * is the scan the viewer must keep readable when one rule fires again and again. The tokens come
 * from a fixed sequence, so only the times move with the day the script runs.
 */
function manyViolationsScan(organizationId) {
  const steps = ['file.read', 'code.edit', 'shell.exec', 'file.read', 'shell.exec', 'code.edit', 'file.write'];
  const entries = 240;
  const end = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
  const gapMs = Math.floor((47 * MINUTE_MS) / entries);
  let state = 25;
  let blocked = 0;
  const timeline = Array.from({ length: entries }, (_, i) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    let action = i === 0 ? 'agent.run' : steps[i % steps.length];
    if (action === 'shell.exec' && blocked === 57) action = 'file.read';
    if (action === 'shell.exec') blocked += 1;
    const tokens = action === 'agent.run' ? 6_000 : 300 + (state % 2_400);
    return { timestamp: new Date(end - (entries - 1 - i) * gapMs).toISOString(), action, tokens };
  });
  if (blocked !== 57) throw new Error(`the timeline has ${blocked} blocked commands, not 57`);
  const tokens = timeline.reduce((sum, entry) => sum + entry.tokens, 0);
  if (tokens <= 250_000) throw new Error(`the timeline has ${tokens} tokens, not over the 250,000 cap`);
  // Agents re-read a lot, so much of it is served from cache.
  const cached = Math.round(tokens * 0.55);
  const output = Math.round(tokens * 0.12);
  const tokenBreakdown = { input: tokens - cached - output, output, cached };
  return {
    tool: 'Claude Code',
    action: 'agent.run',
    tokens,
    organization_id: organizationId,
    timeline,
    token_breakdown: tokenBreakdown,
  };
}

async function signIn(page, server, path) {
  await page.goto(`${server.url}${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(server.token)}`);
  await page.waitForURL((url) => !url.searchParams.has('token'));
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

async function shoot(page, name) {
  // Fonts and the last layout pass, then what is on screen (not the full page: the fold is the point).
  await page.evaluate('document.fonts.ready');
  await page.waitForTimeout(500);
  const path = join(outDir, `${name}.png`);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  console.log(`wrote ${path}`);
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const demoDir = tempDir('scandesk-screenshots-demo-');
  scandesk([
    'demo',
    '--data-dir',
    demoDir,
    '--scans',
    String(DEMO.scans),
    '--seed',
    String(DEMO.seed),
    '--now',
    DEMO.now,
  ]);
  const [demo, empty] = await Promise.all([serve(demoDir), serve(tempDir('scandesk-screenshots-empty-'))]);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const options = {
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      colorScheme: 'light',
      locale: 'en-US',
      timezoneId: 'UTC',
      reducedMotion: 'reduce',
    };

    // The demo data ends at DEMO.now: the browser's clock stands there so that the default ranges hold it.
    const demoContext = await browser.newContext(options);
    const page = await demoContext.newPage();
    await page.clock.setFixedTime(new Date(DEMO.now));
    await signIn(page, demo, '/');
    await page.getByRole('figure').first().locator('svg').first().waitFor();
    await shoot(page, 'overview');
    await page.goto(`${demo.url}/scans`);
    await page.getByRole('table').getByRole('row').nth(10).waitFor();
    await shoot(page, 'scans');

    // Submitted after the list was taken (its time is today's, not the demo's), and shown on a clock
    // that runs, as a scan just submitted is seen.
    const { organizations } = await api(demo, 'GET', '/v1/organizations');
    const helix = organizations.find((each) => each.name === 'Helix Robotics');
    if (!helix) throw new Error('the demo has no organization "Helix Robotics"');
    const scan = await api(demo, 'POST', '/v1/scans', manyViolationsScan(helix.id));
    const rules = scan.violations.map((each) => each.rule);
    if (rules.length !== 58 || rules.filter((rule) => rule === 'action.blocked').length !== 57) {
      throw new Error(`the scan has violations ${JSON.stringify(rules)}, not 57 action.blocked and one more`);
    }
    const scanContext = await browser.newContext(options);
    const scanPage = await scanContext.newPage();
    await signIn(scanPage, demo, `/scans/${scan.id}`);
    await scanPage.locator('.scan-timeline-chart svg').first().waitFor();
    await shoot(scanPage, 'scan-58-violations');

    const emptyContext = await browser.newContext(options);
    const emptyPage = await emptyContext.newPage();
    await signIn(emptyPage, empty, '/');
    await emptyPage
      .getByRole('main')
      .getByText(/scandesk demo/)
      .first()
      .waitFor();
    await shoot(emptyPage, 'empty-workspace');
  } finally {
    await browser.close();
  }
}

try {
  await main();
} finally {
  await Promise.all(
    servers.map((child) => {
      if (child.exitCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    }),
  );
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}
