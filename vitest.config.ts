import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Explicit: Playwright specs (test/browser/*.spec.ts) are not vitest's.
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    pool: 'forks',
    // The CLI bundle the end-to-end suites spawn; the PostgreSQL run's private cluster and migrated
    // template (nothing on SQLite).
    globalSetup: ['test/helpers/cli-build-global-setup.ts', 'test/helpers/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
