import { defineConfig } from 'vitest/config';

// Files that replace modules (vi.mock of electron) need a fresh module registry each.
const MOCKING = ['test/unit/desktop/shell.test.ts', 'test/unit/desktop/main.test.ts'];

// The PostgreSQL run's private cluster and migrated template (nothing on SQLite).
const POSTGRES_SETUP = 'test/helpers/postgres-global-setup.ts';

export default defineConfig({
  test: {
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on CI's two. The
    // suites wait on PostgreSQL, child processes and sockets more than they compute, so two
    // workers keep both cores busy.
    maxWorkers: 2,
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
        // In-process suites share their workers' module registry too: every file opens its own
        // store and app, and a fresh process per file cost more than many of them take to run.
        extends: true,
        test: {
          name: 'integration',
          // Here, not at the top: a top-level global setup runs once per project. The PostgreSQL
          // setup is idempotent, so both projects share one cluster and template.
          globalSetup: [POSTGRES_SETUP],
          include: ['test/integration/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          // The CLI bundle the end-to-end suites spawn, and the PostgreSQL cluster.
          globalSetup: ['test/helpers/cli-build-global-setup.ts', POSTGRES_SETUP],
          include: ['test/e2e/**/*.test.ts', ...MOCKING],
        },
      },
    ],
  },
});
