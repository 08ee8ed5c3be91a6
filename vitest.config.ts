import { defineConfig } from 'vitest/config';

// Files that replace modules (vi.mock of electron) need a fresh module registry each.
const MOCKING = ['test/unit/desktop/shell.test.ts', 'test/unit/desktop/main.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Explicit includes: Playwright specs (test/browser/*.spec.ts) are not vitest's.
    projects: [
      {
        // Unit tests share their workers' module registry: a fresh process per file cost about a
        // second each, more than most of these files take to run.
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: MOCKING,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          // The CLI bundle the end-to-end suites spawn; the PostgreSQL run's private cluster and
          // migrated template (nothing on SQLite). Here, not at the top: a top-level global setup
          // runs once per project.
          globalSetup: ['test/helpers/cli-build-global-setup.ts', 'test/helpers/postgres-global-setup.ts'],
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts', ...MOCKING],
        },
      },
    ],
  },
});
