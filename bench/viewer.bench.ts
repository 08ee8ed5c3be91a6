import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import playwrightConfig from '../playwright.config';
import { createTimelineDataDir, LARGE_TIMELINE } from './lib/evidence-fixture';
import { formatCount, seconds } from './lib/format';
import { result } from './lib/result';
import { runCommand } from './lib/run-command';
import { BIN, childEnv, ROOT, waitForListening } from './lib/serve-child';
import { defineBenchmark, type BenchContext, type Result, type Target } from './lib/types';

const NAME = 'viewer';
const SCANS = { full: 1_000_000, quick: 20_000 } as const;
const RUNS = { full: { cold: 3, warm: 5 }, quick: { cold: 1, warm: 2 } } as const;
const SEED = 3;
const NOW = '2026-11-20T12:00:00Z';
const READY_TIMEOUT_MS = 60_000;
/** The charts the overview draws, each with its figure. */
const OVERVIEW_CHARTS = 6;
/** The long scan's timeline chart (the scan's page also charts its token breakdown). */
const TIMELINE = 'section[aria-labelledby="timeline-heading"] figure.chart-figure';

/** The targets, for a warm cache (the viewer's files already in the browser's cache). */
const WARM_TARGET_S = { overview: 0.5, scans: 0.4, scan: 0.6 } as const;
const ZOOM_TARGET_S = 0.3;
/** Loads of a view in a new browser profile before its warm loads are timed (see signedInProfile). */
const WARM_FILLING_LOADS = 2;

type ViewKey = keyof typeof WARM_TARGET_S;

interface View {
  key: ViewKey;
  label: string;
  path: string;
}

function views(scanId: string, entries: number): View[] {
  return [
    { key: 'overview', label: 'overview 30 d', path: '/?range=30d' },
    { key: 'scans', label: 'scans list', path: '/scans' },
    { key: 'scan', label: `${formatCount(entries)}-entry scan`, path: `/scans/${scanId}` },
  ];
}

interface ReadyCheck {
  key: ViewKey;
  charts: number;
  /** The long scan's request count as the viewer writes it. */
  requests: string;
  timeline: string;
}

/**
 * In the page (self-contained: it is sent as source): whether the view shows its charts and rows;
 * when it does, the page's clock. A function, not a string, which the CSP would refuse to eval.
 */
function readyAt({ key, charts, requests, timeline }: ReadyCheck): number | false {
  let ready: boolean;
  if (key === 'overview') {
    const figures = Array.from(document.querySelectorAll('figure.chart-figure'));
    ready =
      figures.length >= charts &&
      figures.every((f) => f.querySelector('svg path.recharts-area-area, svg rect.bar-chart-bar'));
  } else if (key === 'scans') {
    ready = document.querySelectorAll('.scans-table tbody tr[data-index]').length > 0;
  } else {
    const caption = document.querySelector(`${timeline} figcaption`);
    ready =
      !!caption?.textContent?.includes(`of ${requests} requests`) &&
      !!document.querySelector(`${timeline} svg path`) &&
      !!document.querySelector('.entries-table tbody tr[data-entry]');
  }
  return ready && performance.now();
}

async function waitUntilReady(page: Page, view: View, entries: number): Promise<number> {
  const check: ReadyCheck = {
    key: view.key,
    charts: OVERVIEW_CHARTS,
    requests: formatCount(entries),
    timeline: TIMELINE,
  };
  try {
    const handle = await page.waitForFunction(readyAt, check, { polling: 'raf', timeout: READY_TIMEOUT_MS });
    return (await handle.jsonValue()) as number;
  } catch (error) {
    const shown = await page.evaluate(() => document.body.innerText.slice(0, 600)).catch(() => '');
    throw new Error(`${view.label} (${view.path}) did not show its charts and rows; the page said: ${shown}`, {
      cause: error,
    });
  }
}

/** The demo store plus one long timeline, built once per run. */
function viewerDataDir(context: BenchContext): Promise<{ dataDir: string; scanId: string; entries: number }> {
  const scans = context.quick ? SCANS.quick : SCANS.full;
  const entries = context.quick ? LARGE_TIMELINE.quick : LARGE_TIMELINE.full;
  return context.memo(`viewer:data-dir:${scans}`, async () => {
    const dataDir = context.scratch.tempDir('viewer');
    context.log(`demo --scans ${formatCount(scans)} --seed ${SEED} --now ${NOW}`);
    const run = await runCommand(
      context.scratch,
      process.execPath,
      [BIN, 'demo', '--data-dir', dataDir, '--scans', String(scans), '--seed', String(SEED), '--now', NOW],
      { cwd: ROOT, env: childEnv(), stdoutFile: '/dev/null' },
    );
    context.log(`  built in ${seconds(run.wallMs).toFixed(1)} s; adding a ${formatCount(entries)}-entry scan`);
    const data = await createTimelineDataDir(dataDir, [entries]);
    return { dataDir, scanId: data.scans.get(entries)!, entries };
  });
}

/** The renderer as the code stands, built into a temp dir (so a stale out/ is never measured). */
async function buildRenderer(context: BenchContext): Promise<string> {
  const outDir = context.scratch.tempDir('viewer-build');
  context.log('electron-vite build (the renderer, precompressed)');
  await runCommand(
    context.scratch,
    join(ROOT, 'node_modules', '.bin', 'electron-vite'),
    ['build', '--outDir', outDir],
    {
      cwd: ROOT,
      env: process.env,
      stdoutFile: '/dev/null',
    },
  );
  return join(outDir, 'renderer');
}

async function startViewerServer(
  context: BenchContext,
  dataDir: string,
  rendererDir: string,
): Promise<{ url: string; token: string }> {
  const child = context.scratch.track(
    spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
      cwd: ROOT,
      env: { ...childEnv(), SCANDESK_RENDERER_DIR: rendererDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const url = await waitForListening(child, 'serve');
  return { url, token: readFileSync(join(dataDir, 'token'), 'utf8').trim() };
}

const CONTEXT_OPTIONS = { timezoneId: 'UTC', viewport: { width: 1280, height: 900 } } as const;

/** Signs a context in by the viewer's own form (`POST /sign-in`, which loads no viewer file). */
async function signIn(context: BrowserContext, url: string, token: string): Promise<BrowserContext> {
  const answer = await context.request.post('/sign-in', {
    form: { token, return_to: '/' },
    headers: { Origin: url },
    maxRedirects: 0,
  });
  if (answer.status() !== 303) throw new Error(`sign-in answered ${answer.status()}: ${await answer.text()}`);
  return context;
}

/** A new off-the-record browser context, signed in, its HTTP cache still empty: a first visit. */
async function signedInContext(browser: Browser, url: string, token: string): Promise<BrowserContext> {
  return signIn(await browser.newContext({ baseURL: url, ...CONTEXT_OPTIONS }), url, token);
}

/**
 * A browser with a profile on disk, signed in: a returning visitor's. Its caches are those a
 * person's browser keeps, V8's code cache among them, which an off-the-record context never
 * writes: there every load compiles the viewer's scripts again.
 */
async function signedInProfile(context: BenchContext, url: string, token: string): Promise<BrowserContext> {
  const profile = await chromium.launchPersistentContext(context.scratch.tempDir('viewer-profile'), {
    ...playwrightConfig.use?.launchOptions,
    baseURL: url,
    ...CONTEXT_OPTIONS,
  });
  try {
    return await signIn(profile, url, token);
  } catch (error) {
    await profile.close();
    throw error;
  }
}

interface Load {
  /** From navigation start to the view showing its charts and rows, in seconds. */
  seconds: number;
  /** The page's main-thread busy time until then (Chromium's TaskDuration), in seconds. */
  mainThread: number;
  /** Bytes received over the network (headers and encoded bodies). */
  bytes: number;
}

/**
 * Bytes the page receives over the network from now on, and its main thread's busy time so far:
 * less distorted by other processes on the machine than the wall time, and what the viewer's own
 * code decides.
 */
async function watchPage(
  context: BrowserContext,
  page: Page,
): Promise<{ bytes: () => number; mainThread: () => Promise<number> }> {
  const cdp = await context.newCDPSession(page);
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => (bytes += event.encodedDataLength));
  await cdp.send('Network.enable');
  await cdp.send('Performance.enable');
  const mainThread = async (): Promise<number> => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    return metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? Number.NaN;
  };
  return { bytes: () => bytes, mainThread };
}

/** A full page load of `view` in a new page of `context`, timed by the page's own clock. */
async function load(context: BrowserContext, view: View, entries: number): Promise<Load> {
  const page = await context.newPage();
  try {
    const watched = await watchPage(context, page);
    await page.goto(view.path, { waitUntil: 'commit' });
    const ms = await waitUntilReady(page, view, entries);
    const mainThread = await watched.mainThread();
    // Let the last responses finish so their bytes are counted.
    await page.waitForLoadState('networkidle');
    return { seconds: seconds(ms), mainThread, bytes: watched.bytes() };
  } finally {
    await page.close();
  }
}

/**
 * In the page, polled each frame from the brush's release: notes when the zoom window enters the
 * URL and when the window's own data (a timeline request with `since`) has arrived; a frame after
 * that (React renders what arrived before the next frame), the milliseconds since the URL changed.
 * No inner functions: the source is sent as compiled, and a named one would call a helper the
 * page lacks.
 */
function zoomedAt({ caption, timeline }: { caption: string; timeline: string }): number | false {
  const now = performance.now();
  const state = window as unknown as { zoomCommittedAt?: number; zoomFetchedAt?: number };
  if (state.zoomCommittedAt === undefined && location.search.includes('from=')) state.zoomCommittedAt = now;
  if (state.zoomCommittedAt === undefined) return false;
  if (
    state.zoomFetchedAt === undefined &&
    performance
      .getEntriesByType('resource')
      .some((entry) => entry.name.includes('/evidence/timeline') && entry.name.includes('since='))
  ) {
    state.zoomFetchedAt = now;
    return false;
  }
  const text = document.querySelector(`${timeline} figcaption`)?.textContent;
  if (state.zoomFetchedAt === undefined || !text || text === caption) return false;
  return now - state.zoomCommittedAt;
}

/**
 * The in-page zoom on the long scan: the left end of the brush is dragged to the middle, and the
 * time is from the window entering the URL (the brush at rest: the viewer waits 350 ms after the
 * last move before it asks) to the chart redrawn from the window's own data.
 */
async function zoom(context: BrowserContext, view: View, entries: number): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto(view.path);
    await waitUntilReady(page, view, entries);
    const before = await page.locator(`${TIMELINE} figcaption`).textContent();
    const box = await page.locator(`${TIMELINE} .recharts-brush-traveller`).first().boundingBox();
    const brush = await page.locator(`${TIMELINE} .recharts-brush`).first().boundingBox();
    if (!box || !brush) throw new Error('the timeline has no brush to zoom with');
    const y = box.y + box.height / 2;
    await page.evaluate(() => performance.clearResourceTimings());
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(brush.x + brush.width * 0.5, y, { steps: 5 });
    await page.mouse.up();
    const handle = await page.waitForFunction(
      zoomedAt,
      { caption: before ?? '', timeline: TIMELINE },
      {
        polling: 'raf',
        timeout: READY_TIMEOUT_MS,
      },
    );
    return seconds((await handle.jsonValue()) as number);
  } finally {
    await page.close();
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

export default defineBenchmark({
  name: NAME,
  description:
    'the viewer in headless Chromium over a demo store and a long scan: time to charts and rows, cold and warm cache, an in-page zoom, bytes',
  async run(context) {
    const runs = context.quick ? RUNS.quick : RUNS.full;
    const { dataDir, scanId, entries } = await viewerDataDir(context);
    const rendererDir = await buildRenderer(context);
    const server = await startViewerServer(context, dataDir, rendererDir);
    const scans = context.quick ? SCANS.quick : SCANS.full;
    const list = views(scanId, entries);

    // The browser and switches the browser tests use (Playwright cannot download its own here).
    const browser = await chromium.launch(playwrightConfig.use?.launchOptions);
    const rows: Result[] = [];
    try {
      const cold = new Map<ViewKey, Load[]>();
      const warm = new Map<ViewKey, Load[]>();
      context.log(`${runs.cold} cold and ${runs.warm} warm loads of each view`);
      for (let run = 0; run < runs.cold; run++) {
        for (const view of list) {
          // A new context per cold load: an empty cache, as on a first visit.
          const signedIn = await signedInContext(browser, server.url, server.token);
          try {
            cold.set(view.key, [...(cold.get(view.key) ?? []), await load(signedIn, view, entries)]);
          } finally {
            await signedIn.close();
          }
        }
      }
      for (const view of list) {
        // Chromium writes a script's code cache at its second load and reads it from the third.
        const profile = await signedInProfile(context, server.url, server.token);
        try {
          for (let filling = 0; filling < WARM_FILLING_LOADS; filling++) await load(profile, view, entries);
          for (let again = 0; again < runs.warm; again++) {
            warm.set(view.key, [...(warm.get(view.key) ?? []), await load(profile, view, entries)]);
          }
        } finally {
          await profile.close();
        }
      }

      context.log('in-page zoom');
      const zooms: number[] = [];
      const signedIn = await signedInContext(browser, server.url, server.token);
      try {
        for (let run = 0; run < runs.warm; run++) zooms.push(await zoom(signedIn, list[2]!, entries));
      } finally {
        await signedIn.close();
      }

      const store = `${formatCount(scans)} scans`;
      for (const view of list) {
        const kinds = [
          { cache: 'cold', loads: cold.get(view.key)!, said: 'empty cache', bytes: 'viewer files and API answers' },
          {
            cache: 'warm',
            loads: warm.get(view.key)!,
            said: "a browser profile that has loaded the view twice (HTTP cache and V8's code cache), index.html revalidated",
            bytes: 'API answers and the 304 of index.html',
          },
        ] as const;
        for (const { cache, loads, said, bytes } of kinds) {
          const target: Target | null =
            cache === 'warm' ? { kind: 'max', limit: WARM_TARGET_S[view.key], unit: 's' } : null;
          rows.push(
            result({
              benchmark: NAME,
              label: `${view.label}: ${cache} cache`,
              metric: 's',
              value: median(loads.map((l) => l.seconds)),
              target,
              note: `${store}; ${said}; median of ${loads.length} full page loads, navigation start to charts and rows drawn (the page's clock)`,
            }),
            result({
              benchmark: NAME,
              label: `${view.label}: main thread, ${cache}`,
              metric: 's',
              value: median(loads.map((l) => l.mainThread)),
              note: `Chromium's TaskDuration from navigation to charts and rows drawn, median of ${loads.length}: the page's own work, which the machine's other load stretches less than the wall time`,
            }),
            result({
              benchmark: NAME,
              label: `${view.label}: bytes received, ${cache}`,
              metric: 'KB',
              value: median(loads.map((l) => l.bytes)) / 1024,
              note: `${bytes}, headers included, as sent over the network`,
            }),
          );
        }
      }
      rows.push(
        result({
          benchmark: NAME,
          label: `${list[2]!.label}: in-page zoom`,
          metric: 's',
          value: median(zooms),
          target: { kind: 'max', limit: ZOOM_TARGET_S, unit: 's' },
          note: `median of ${zooms.length}: from the zoom window entering the URL (350 ms after the brush rests) to the chart redrawn from the window's own data`,
        }),
      );
    } finally {
      await browser.close();
    }
    return rows;
  },
});
