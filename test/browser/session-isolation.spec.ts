import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanupProcesses, startServe, type ServeProcess } from '../helpers/serve-process';
import type { Request } from '@playwright/test';
import { expect, signIn, test } from './fixtures';

// Browsers send every cookie of 127.0.0.1 to every port there. These prove, in real Chromium, that
// what another local server gets from that is worth nothing (docs/security.md, "Browser sessions").

/** Another local web server the user happens to visit: it records what the browser sends it. */
class OtherLocalServer {
  readonly seen: IncomingHttpHeaders[] = [];
  private server: Server | null = null;
  private pages = new Map<string, string>();

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      this.seen.push(request.headers);
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(this.pages.get(request.url ?? '/') ?? '<!doctype html><title>other</title><p>other server</p>');
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  page(path: string, html: string): void {
    this.pages.set(path, `<!doctype html><title>other</title>${html}`);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const A = (): string => process.env.SCANDESK_URL!;
const owner = (): string => process.env.SCANDESK_TOKEN!;
const me = async (base: string, cookie: string): Promise<Response> => fetch(`${base}/v1/me`, { headers: { cookie } });

let other: OtherLocalServer;
let otherUrl: string;
let second: ServeProcess | null = null;
test.beforeEach(async () => {
  other = new OtherLocalServer();
  otherUrl = await other.start();
});
test.afterEach(async () => {
  await other.stop();
  await second?.stop();
  second = null;
  await cleanupProcesses();
});

test('a session cookie that reaches another local server is useless outside this server', async ({ page }) => {
  await signIn(page);
  await page.goto(otherUrl);
  // The leak itself is the browser's doing: the other server does receive our cookie...
  const leaked = other.seen
    .map((headers) => headers.cookie ?? '')
    .find((cookie) => cookie.includes('scandesk_session'));
  expect(leaked, 'the browser sent our cookie to the other port').toBeDefined();
  const [name, value] = leaked!.split(';')[0]!.trim().split('=') as [string, string];
  expect(name).toBe(`scandesk_session_${new URL(A()).port}`);

  // ...replayed here, it never yields the permanent token...
  const settings = await fetch(`${A()}/v1/settings`, { headers: { cookie: `${name}=${value}` } });
  expect(settings.status).toBe(200);
  const body = await settings.text();
  expect(body).not.toContain(owner());
  expect(JSON.parse(body)).toMatchObject({ token: null });

  // ...and another Scandesk server, even on the same data directory, refuses it under any name.
  second = await startServe({ dataDir: process.env.SCANDESK_DATA_DIR! });
  expect((await me(second.url, `${name}=${value}`)).status).toBe(401);
  expect((await me(second.url, `scandesk_session_${second.port}=${value}`)).status).toBe(401);
  await page.goto(second.url);
  await expect(page.getByRole('heading', { name: 'Sign in to Scandesk' })).toBeVisible();
  // Signing in there did not sign this browser out here.
  expect((await page.request.get(`${A()}/v1/me`)).status()).toBe(200);
});

test('another local page cannot switch the viewer to another account or sign it in', async ({ page }) => {
  const created = await fetch(`${A()}/v1/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `mallory-${Date.now()}` }),
  });
  expect(created.status).toBe(201);
  const { token: mallory } = (await created.json()) as { token: string };
  const link = `${A()}/?token=${encodeURIComponent(mallory)}`;
  other.page('/img', `<img id="probe" src="${link}" alt="">`);
  other.page('/navigate', `<a id="go" href="${link}">open</a>`);

  await signIn(page);
  const exchanges: Request[] = [];
  page.on('request', (request) => {
    if (request.url() === link) exchanges.push(request);
  });
  await page.goto(`${otherUrl}/img`, { waitUntil: 'load' });
  await page.goto(`${otherUrl}/navigate`);
  await page.locator('#go').click();
  await expect(page.getByText('A sign-in link works only when you open it yourself')).toBeVisible();
  // Both really were sent (the image's refusal is opaque to the page; the navigation shows it).
  expect(exchanges.map((request) => request.resourceType())).toEqual(['image', 'document']);

  const who = await page.request.get(`${A()}/v1/me`);
  expect(((await who.json()) as { name: string }).name).toBe('local');
});
