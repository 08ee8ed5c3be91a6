#!/usr/bin/env node
// `npm test`: the static checks and every suite (vitest: unit, integration, CLI end-to-end; Playwright: browser
// and desktop end-to-end), then one closing line `N passed, N failed, N skipped` totalling all of them.
// CI reads only that line, so it is always printed, and the exit code is non-zero on any failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(root, 'test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);
const runStarted = Date.now();
const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;
// Each phase's wall time, printed after it and again above the closing line: where CI's time goes.
const timings = [];

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// Static checks count as one test each: a type error or a layering violation fails the run. They run
// side by side with the build (each of tsc and eslint uses one core), their output shown afterwards.
function runTogether(jobs) {
  return new Promise((resolve) => {
    const results = new Map();
    for (const [name, command, args] of jobs) {
      const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const started = Date.now();
      child.on('close', (code) => {
        results.set(name, { status: code ?? 1, output, seconds: (Date.now() - started) / 1000 });
        if (results.size === jobs.length) resolve(results);
      });
    }
  });
}

const staticStarted = Date.now();
const staticJobs = await runTogether([
  ['typecheck: node', bin('tsc'), ['-p', 'tsconfig.node.json']],
  ['typecheck: web', bin('tsc'), ['-p', 'tsconfig.web.json']],
  ['typecheck: test', bin('tsc'), ['-p', 'tsconfig.test.json']],
  ['lint: eslint', bin('eslint'), ['.']],
  ['lint: prettier', bin('prettier'), ['--check', '.']],
  // The built app (out/) for the Playwright suites and the build-output test, built once.
  ['build', bin('electron-vite'), ['build']],
]);
for (const [name, { status, output, seconds }] of staticJobs) {
  console.log(`\n=== ${name} ===`);
  process.stdout.write(output);
  console.log(`--- ${name}: ${seconds.toFixed(1)} s${status === 0 ? '' : ` (exit ${status})`}`);
}
timings.push(['typecheck, lint and build, side by side', (Date.now() - staticStarted) / 1000]);
const failedTypecheck = [...staticJobs].some(([name, { status }]) => name.startsWith('typecheck') && status !== 0);
const failedLint = [...staticJobs].some(([name, { status }]) => name.startsWith('lint') && status !== 0);
for (const failed of [failedTypecheck, failedLint]) {
  if (failed) totals.failed += 1;
  else totals.passed += 1;
}
const built = staticJobs.get('build')?.status === 0;
if (!built) broken = true;

// One phase in a child: its output straight through, or kept and shown when it ends (`capture`, for
// a phase that runs beside another); resolves its exit status and records its wall time.
function runPhase(name, command, args, { env = {}, capture = false } = {}) {
  if (!capture) console.log(`\n=== ${name} ===`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      timings.push([name, seconds]);
      if (capture) {
        console.log(`\n=== ${name} ===`);
        process.stdout.write(output);
      }
      console.log(`--- ${name}: ${seconds.toFixed(1)} s`);
      resolve(code ?? 1);
    });
  });
}

// Vitest: everything on SQLite, then the integration and end-to-end suites again on PostgreSQL
// (a private cluster started by test/helpers/postgres-global-setup.ts, or the server of
// SCANDESK_TEST_DATABASE_URL).
async function runVitest(name, paths, env, jsonFile, options = {}) {
  const file = join(resultsDir, jsonFile);
  const status = await runPhase(
    name,
    bin('vitest'),
    ['run', ...paths, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    // SCANDESK_BUILT_OUT: out/ was built above, so the build-output test checks it rather than building again.
    { ...options, env: { ...(built ? { SCANDESK_BUILT_OUT: '1' } : {}), ...env } },
  );
  const vitest = readJson(file);
  if (vitest) {
    totals.passed += vitest.numPassedTests;
    totals.failed += vitest.numFailedTests;
    totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
    // A file that fails to load has no tests to count; it still fails the run.
    if (status !== 0 && vitest.numFailedTests === 0) broken = true;
  } else broken = true;
}

// Playwright: the browser suite (playwright.config.ts) and the desktop suite
// (playwright.electron.config.ts), which skips each of its tests where the Electron binary is missing.
async function runPlaywright(name, config, jsonFile, options = {}) {
  const status = await runPhase(name, bin('playwright'), ['test', '--config', config], options);
  // The json reporter's file, set in the config. Its stats count a test once per project that runs it:
  // a browser test tagged @zones counts twice (UTC and New York), and a failure in either is a failure.
  const stats = readJson(join(resultsDir, jsonFile))?.stats;
  if (stats) {
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
    if (status !== 0 && stats.unexpected === 0) broken = true;
  } else broken = true;
}

await runVitest(
  'vitest: unit, integration, end-to-end (SQLite)',
  [],
  { SCANDESK_TEST_BACKEND: 'sqlite' },
  'vitest.json',
);

if (existsSync('/usr/lib/postgresql/15/bin/initdb') || process.env.SCANDESK_TEST_DATABASE_URL) {
  // Only the files whose stores follow SCANDESK_TEST_BACKEND: those below never open a store (or,
  // like bench-smoke, start their children without the test backend), so a PostgreSQL run of them
  // would repeat the SQLite run exactly.
  const sameOnEveryBackend = [
    'test/e2e/build-output.test.ts',
    'test/e2e/bench-smoke.test.ts',
    'test/e2e/cli/terminal-escapes.test.ts',
    'test/integration/fixtures/fake-upstream.test.ts',
    'test/integration/sync/client/remote-client.test.ts',
  ];
  await runVitest(
    'vitest: integration, end-to-end (PostgreSQL)',
    ['test/integration', 'test/e2e', ...sameOnEveryBackend.map((path) => `--exclude=${path}`)],
    { SCANDESK_TEST_BACKEND: 'postgres' },
    'vitest-postgres.json',
  );
} else {
  totals.failed += 1;
  console.error(
    '\nPostgreSQL 15 is missing: install postgresql-15 (apt; .ci/run does) or set SCANDESK_TEST_DATABASE_URL to an admin URL',
  );
}

// After the PostgreSQL run, not beside it: on two cores the two together ran past their timeouts.
// Both need the built app, built fresh above so that they never test a stale one.
if (built && existsSync(join(root, 'playwright.config.ts'))) {
  await runPlaywright('playwright: browser end-to-end', 'playwright.config.ts', 'playwright.json');
} else if (!built) broken = true;

if (built && existsSync(join(root, 'playwright.electron.config.ts'))) {
  await runPlaywright('playwright: desktop (Electron)', 'playwright.electron.config.ts', 'playwright-electron.json');
}

if (broken) {
  totals.failed += 1;
  console.error('\na suite failed to run or report its results (counted as one failure above)');
}
console.log('\nwall time per phase:');
for (const [name, seconds] of timings) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`);
console.log(`  ${((Date.now() - runStarted) / 1000).toFixed(1).padStart(7)} s  in all`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
