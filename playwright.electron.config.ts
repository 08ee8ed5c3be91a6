import { defineConfig } from '@playwright/test';

// The desktop suite: Playwright drives the built app (out/) in Electron. Where the Electron binary
// is not installed every test reports itself skipped with the reason (test/electron/electron-binary.ts).
export default defineConfig({
  testDir: 'test/electron',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  outputDir: 'test-results/playwright-electron',
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright-electron.json' }]],
});
