import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Explicit: Playwright specs (test/browser/*.spec.ts) are not vitest's.
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    pool: 'forks',
    // The PostgreSQL run's private cluster and migrated template; nothing on SQLite.
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
