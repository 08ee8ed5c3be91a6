import { cleanupProcesses, startServe, type ServeProcess } from '../helpers/serve-process';
import { startTlsProxy, type TlsProxy } from '../helpers/tls-proxy';
import { expect, test } from './fixtures';

// `scandesk serve --trust-proxy` behind a real TLS proxy on loopback, driven by Chromium over
// https: the viewer's writes carry `Origin: https://localhost:<proxy port>`, which the server
// learns to expect only from the proxy's X-Forwarded-Proto/-Host.

let server: ServeProcess | null = null;
let proxy: TlsProxy | null = null;
test.afterEach(async () => {
  await proxy?.stop();
  proxy = null;
  await server?.stop();
  server = null;
  await cleanupProcesses();
});

// The certificate is made at test time and trusted by nobody, as a team's own would be at first.
test.use({ ignoreHTTPSErrors: true });

for (const hostMode of ['upstream', 'browser'] as const) {
  test(`the viewer signs in and writes over https (proxy passes Host: ${hostMode})`, async ({ page, context }) => {
    server = await startServe({ args: ['--trust-proxy'] });
    proxy = await startTlsProxy(server.url, hostMode);

    await page.goto(`${proxy.url}/?token=${encodeURIComponent(server.token)}`);
    await expect(page).toHaveURL(`${proxy.url}/`);
    await expect(page.getByRole('banner').getByText('Signed in as local')).toBeVisible();
    const cookie = (await context.cookies(proxy.url)).find((each) => each.name.startsWith('scandesk_session'));
    expect(cookie?.secure).toBe(true);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
    const name = `Behind TLS ${hostMode}`;
    const created = page.waitForResponse(
      (response) => response.url() === `${proxy!.url}/v1/organizations` && response.request().method() === 'POST',
    );
    await page.getByLabel('New organization name').fill(name);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const response = await created;
    expect(await response.request().headerValue('origin')).toBe(proxy.url);
    expect(response.status()).toBe(201);
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  });
}
