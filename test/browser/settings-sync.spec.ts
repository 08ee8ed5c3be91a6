import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as playwrightRequest, type Page } from '@playwright/test';
import { expect, expectAccessible, saveScreenshot, test } from './fixtures';

// The browser suite's server (global-setup.ts) is the laptop; a second `scandesk serve` is the team
// server it syncs with, reached through a proxy that can hold the team's evidence exports so that
// the page is seen mid-run, its progress showing, whatever the speed of the machine.

const TOOL = 'settings-sync-spec';

interface TeamServer {
  url: string;
  token: string;
  stop(): Promise<void>;
}

async function startTeamServer(): Promise<TeamServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-browser-team-'));
  const server: ChildProcess = spawn(
    process.execPath,
    ['bin/scandesk.js', 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    server.on('exit', (code) => reject(new Error(`the team server exited with ${code}:\n${stderr}`)));
  });
  return {
    url,
    token: readFileSync(join(dataDir, 'token'), 'utf8').trim(),
    async stop() {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A pass-through proxy to `target` that can hold the requests under one path until released. */
interface HoldingProxy {
  url: string;
  hold(pathPrefix: string): void;
  release(): void;
  close(): Promise<void>;
}

async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  let holding: string | null = null;
  const held: Array<() => void> = [];
  const server: Server = createServer((incoming, outgoing) => {
    const forward = (): void => {
      const url = new URL(incoming.url ?? '/', target);
      const upstream = httpRequest(
        url,
        { method: incoming.method, headers: { ...incoming.headers, host: url.host } },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      incoming.pipe(upstream);
    };
    if (holding !== null && (incoming.url ?? '').startsWith(holding)) held.push(forward);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold(pathPrefix) {
      holding = pathPrefix;
    },
    release() {
      holding = null;
      for (const forward of held.splice(0)) forward();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let team: TeamServer;
let proxy: HoldingProxy;
const added: string[] = [];
const owner = () => ({ Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` });

test.beforeAll(async () => {
  team = await startTeamServer();
  proxy = await startHoldingProxy(team.url);
  const api = await playwrightRequest.newContext({ baseURL: team.url });
  for (const tokens of [100, 200, 300]) {
    const submitted = await api.post('/v1/scans', {
      headers: { Authorization: `Bearer ${team.token}` },
      data: { tool: TOOL, action: 'edit', tokens },
    });
    expect(submitted.status()).toBe(201);
  }
  await api.dispose();
});

test.afterAll(async ({ request }) => {
  for (const name of added) await request.delete(`/v1/remotes/${name}`, { headers: owner() });
  await proxy?.close();
  await team?.stop();
});

function syncCard(page: Page) {
  return page.locator('.settings-card', { has: page.getByRole('heading', { name: 'Sync', exact: true }) });
}

async function addRemote(page: Page, name: string, url: string, token: string): Promise<void> {
  const form = syncCard(page).getByRole('form', { name: 'Add a remote' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('URL').fill(url);
  await form.getByLabel('Token', { exact: true }).fill(token);
  // Background sync stays off: the runs here are the ones the test asks for.
  await form.getByLabel('Sync in the background').uncheck();
  await form.getByRole('button', { name: 'Add remote' }).click();
  added.push(name);
  // The form is emptied once the server has the remote: the token is not kept in the page.
  await expect(form.getByLabel('Token', { exact: true })).toHaveValue('');
}

test('a remote with a wrong token says so; with the right one it is tested, then synced with progress and a summary', async ({
  signedIn: page,
  request,
}) => {
  const name = `team-${Date.now()}`;
  await page.goto('/settings');
  const card = syncCard(page);
  await addRemote(page, name, proxy.url, 'sdt_not-the-teams-token');
  const remote = card.getByRole('region', { name });
  // Added, it is tested at once, and the refusal is said in words.
  await expect(remote.getByRole('alert')).toContainText('refused the token');
  await expect(remote).toContainText('never');

  await remote.getByRole('button', { name: /^Change token/ }).click();
  await remote.getByLabel('New token', { exact: true }).fill(team.token);
  await remote.getByRole('button', { name: 'Save token' }).click();
  await expect(remote.getByTestId('test-result')).toHaveText(
    "Reached a Scandesk server: the token's user sees 3 scans in 0 organizations.",
  );
  await expect(remote.getByRole('alert')).toHaveCount(0);
  await expect(remote).toContainText('Scandesk');
  // The token is never read back: neither the page nor the API holds it.
  await expect(page.locator('body')).not.toContainText(team.token);
  const listed = await request.get('/v1/remotes', { headers: owner() });
  expect(await listed.text()).not.toContain(team.token);
  await expectAccessible(page);

  proxy.hold('/v1/sync/scans');
  await remote.getByRole('button', { name: /^Sync now/ }).click();
  const run = remote.getByTestId('sync-run');
  await expect(run).toContainText(/Pull: 0 scans, /);
  await expect(run.getByRole('progressbar', { name: `Sync with ${name}` })).toBeVisible();
  await expect(remote.getByRole('button', { name: /^Syncing/ })).toBeDisabled();
  await saveScreenshot(page, 'settings-sync-progress');
  proxy.release();
  await expect(run).toHaveText(
    /^Synced: pulled 3 new, 0 changed, 0 unchanged \(.+\); pushed 0, 0 waiting; in step with the remote\.$/,
  );
  await expect(remote.getByTestId('last-sync')).toContainText('Synced: pulled 3 new');
  await saveScreenshot(page, 'settings-sync');

  const pulled = await request.get(`/v1/scans?tool=${TOOL}`, { headers: owner() });
  expect(((await pulled.json()) as { total: number }).total).toBe(3);

  // A link to a scan by its id on the team server opens its pulled copy here, which says so.
  const onTeam = await request.get(`${team.url}/v1/scans?limit=1`, {
    headers: { Authorization: `Bearer ${team.token}` },
  });
  const teamScanId = ((await onTeam.json()) as { scans: { id: string }[] }).scans[0]!.id;
  await page.goto(`/scans/${teamScanId}`);
  await expect(page).not.toHaveURL(new RegExp(`/scans/${teamScanId}$`));
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary.getByText('Pulled from')).toBeVisible();
  await expect(summary).toContainText(`${name}, where it is ${teamScanId}`);
  await page.goto('/settings');

  // Again: nothing new on the team server, nothing new here.
  await remote.getByRole('button', { name: /^Sync now/ }).click();
  await expect(run).toHaveText(
    /^Synced: pulled 0 new, 0 changed, 0 unchanged \(.+\); pushed 0, 0 waiting; in step with the remote\.$/,
  );

  // Background sync and its interval are saved on the remote.
  await remote.getByLabel(`Sync ${name} in the background`).check();
  await remote.getByLabel('Minutes between syncs').fill('30');
  await remote.getByRole('button', { name: 'Save interval' }).click();
  await expect(remote.getByRole('button', { name: 'Save interval' })).toBeDisabled();
  await page.reload();
  const reloaded = syncCard(page).getByRole('region', { name });
  await expect(reloaded.getByLabel(`Sync ${name} in the background`)).toBeChecked();
  await expect(reloaded.getByLabel('Minutes between syncs')).toHaveValue('30');
  await expect(reloaded.getByTestId('last-sync')).toContainText('Synced: pulled 0 new');
});

test('a remote that cannot be reached says so; Remove asks first', async ({ signedIn: page }) => {
  const name = `gone-${Date.now()}`;
  const port = await closedPort();
  await page.goto('/settings');
  const card = syncCard(page);
  await addRemote(page, name, `http://127.0.0.1:${port}`, 'sdt_whatever');
  const remote = card.getByRole('region', { name });
  await expect(remote.getByRole('alert')).toContainText(`cannot reach 127.0.0.1:${port}`);

  await remote.getByRole('button', { name: /^Sync now/ }).click();
  await expect(remote.getByTestId('sync-run')).toContainText('Could not reach the remote.');
  await expect(remote.getByTestId('sync-run')).toContainText(`cannot reach 127.0.0.1:${port}`);

  await remote.getByRole('button', { name: /^Remove/ }).click();
  const confirm = remote.getByRole('group', { name: new RegExp(`Remove the remote ${name}\\?`) });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page);
  await confirm.getByRole('button', { name: `Remove ${name}` }).click();
  await expect(card.getByRole('region', { name })).toHaveCount(0);
  added.splice(added.indexOf(name), 1);
});

test('a user who is not the workspace owner sees why there is nothing to manage', async ({ page, request }) => {
  const created = await request.post('/v1/users', { headers: owner(), data: { name: `sync-member-${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { token } = (await created.json()) as { token: string };
  await page.goto(`/settings?token=${encodeURIComponent(token)}`);
  const card = syncCard(page);
  await expect(card).toContainText('Only the workspace owner can manage remotes.');
  await expect(card.getByRole('form', { name: 'Add a remote' })).toHaveCount(0);
});
