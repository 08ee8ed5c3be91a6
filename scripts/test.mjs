#!/usr/bin/env node
// `npm test`: the static checks and every suite (vitest: unit, integration, CLI end-to-end; Playwright: browser
// and desktop end-to-end), then one closing line `N passed, N failed, N skipped` totalling all of them.
// CI reads only that line, so it is always printed, and the exit code is non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(root, 'test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function runSuite(name, command, args) {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  return result.status ?? 1;
}

// Static checks count as one test each: a type error or a layering violation fails the run.
for (const script of ['typecheck', 'lint']) {
  if (runSuite(script, 'npm', ['run', '--silent', script]) === 0) totals.passed += 1;
  else totals.failed += 1;
}

// Vitest: everything on SQLite, then the integration and end-to-end suites again on PostgreSQL
// (a private cluster started by test/helpers/postgres-global-setup.ts, or the server of
// SCANDESK_TEST_DATABASE_URL).
function runVitest(name, paths, env, jsonFile) {
  const file = join(resultsDir, jsonFile);
  console.log(`\n=== ${name} ===`);
  const status =
    spawnSync(bin('vitest'), ['run', ...paths, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    }).status ?? 1;
  const vitest = readJson(file);
  if (vitest) {
    totals.passed += vitest.numPassedTests;
    totals.failed += vitest.numFailedTests;
    totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
    // A file that fails to load has no tests to count; it still fails the run.
    if (status !== 0 && vitest.numFailedTests === 0) broken = true;
  } else broken = true;
}

runVitest('vitest: unit, integration, end-to-end (SQLite)', [], { SCANDESK_TEST_BACKEND: 'sqlite' }, 'vitest.json');
if (existsSync('/usr/lib/postgresql/15/bin/initdb') || process.env.SCANDESK_TEST_DATABASE_URL) {
  runVitest(
    'vitest: integration, end-to-end (PostgreSQL)',
    ['test/integration', 'test/e2e'],
    { SCANDESK_TEST_BACKEND: 'postgres' },
    'vitest-postgres.json',
  );
} else {
  totals.failed += 1;
  console.error(
    '\nPostgreSQL 15 is missing: install postgresql-15 (apt; .ci/run does) or set SCANDESK_TEST_DATABASE_URL to an admin URL',
  );
}

// Playwright: the browser suite (playwright.config.ts) and the desktop suite
// (playwright.electron.config.ts), which skips each of its tests where the Electron binary is missing.
function runPlaywright(name, config, jsonFile) {
  const status = runSuite(name, bin('playwright'), ['test', '--config', config]);
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

const playwrightSuites = [
  ['playwright: browser end-to-end', 'playwright.config.ts', 'playwright.json'],
  ['playwright: desktop (Electron)', 'playwright.electron.config.ts', 'playwright-electron.json'],
].filter(([, config]) => existsSync(join(root, config)));
// Both suites need the built app; build it fresh so that they never test a stale one.
if (playwrightSuites.length > 0 && runSuite('build', bin('electron-vite'), ['build']) !== 0) {
  broken = true;
} else {
  for (const [name, config, jsonFile] of playwrightSuites) runPlaywright(name, config, jsonFile);
}

if (broken) {
  totals.failed += 1;
  console.error('\na suite failed to run or report its results (counted as one failure above)');
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
