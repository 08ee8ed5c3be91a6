import { spawnSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { BIN, childEnv, cleanupProcesses, ROOT, startServe, type ServeProcess } from '../helpers/serve-process';
import { expect, expectAccessible, test } from './fixtures';

// A workspace with no scans says how to put some in, with commands for this very server, rather
// than "No scans match these filters" over empty cards. Its own server: the suite's store is full.

let server: ServeProcess | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
  await cleanupProcesses();
});

async function open(page: Page, server: ServeProcess, path: string): Promise<void> {
  await page.goto(`${server.url}${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(server.token)}`);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

/** Runs a command as the page shows it: `NAME=value …` words set the environment, then the CLI. */
function runShown(command: string): { status: number | null; stdout: string; stderr: string } {
  const words = command.split(' ');
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  expect(words.shift()).toBe('scandesk');
  const run = spawnSync(process.execPath, [BIN, ...words], { cwd: ROOT, env: childEnv(env), encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test.describe('a first visit to an empty workspace @zones', () => {
  test('the scans page and the overview say what to do, with the commands for this server', async ({ page }) => {
    // Waits out retries and a private server's start: more than a quick page check on a loaded machine.
    test.slow();
    server = await startServe({ startTimeoutMs: 60_000 });
    await open(page, server, '/scans');
    const guide = page.getByRole('region', { name: 'No scans yet' });
    await expect(guide).toBeVisible();
    await expect(page.getByText('No scans match these filters')).toHaveCount(0);
    await expect(page.getByTestId('first-visit-demo')).toHaveText(`scandesk demo --data-dir ${server.dataDir}`);
    const submit = page.getByTestId('first-visit-submit');
    await expect(submit).toContainText(
      `SCANDESK_URL=${server.url} SCANDESK_DATA_DIR=${server.dataDir} scandesk submit`,
    );
    await expect(guide.getByRole('button', { name: 'Import evidence…' })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectAccessible(page);
    // Filters on an empty workspace still say how to fill it: there is nothing for them to miss.
    await page.goto(`${server.url}/scans?tool=Claude`);
    await expect(guide).toBeVisible();

    await page.goto(`${server.url}/`);
    await expect(guide).toBeVisible();
    await expect(page.locator('.overview-grid')).toHaveCount(0);

    // The command works as shown, and the first scan ends the first visit on the open page.
    const ran = runShown((await submit.textContent())!);
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    await expect(guide).toHaveCount(0, { timeout: 15_000 });
    await expect(page.locator('.overview-grid figure').first()).toBeVisible();

    await page.goto(`${server.url}/scans`);
    await expect(page.getByRole('table')).toBeVisible();
    await expect(guide).toHaveCount(0);
    await page.goto(`${server.url}/scans?tool=NoSuchTool`);
    await expect(page.getByText('No scans match these filters.')).toBeVisible();
    await expect(guide).toHaveCount(0);
  });
});
