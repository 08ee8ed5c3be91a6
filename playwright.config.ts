import { defineConfig } from '@playwright/test';

// Playwright cannot download its own browser here: it drives Debian's Chromium.
const CHROMIUM = process.env.SCANDESK_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'test/browser',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/browser/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  outputDir: 'test-results/playwright',
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    baseURL: process.env.SCANDESK_URL,
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // Every viewer time is shown in one zone the user picks; a test that passes only where the browser
  // runs in UTC hides a local-time bug. The default project pins UTC so that runs agree everywhere,
  // and tests tagged @zones run again in a zone with a different offset and daylight saving time.
  // Only tagged tests run twice: the browser suite's share of CI's time limit stays small.
  projects: [
    { name: 'utc', use: { timezoneId: 'UTC' } },
    { name: 'new-york', grep: /@zones/, use: { timezoneId: 'America/New_York' } },
  ],
});
