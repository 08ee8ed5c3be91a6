import type { APIRequestContext } from '@playwright/test';
import { expect, signIn, test } from './fixtures';

// Headless Chromium does not fetch favicons itself, so the test follows what a browser would:
// the icons the page declares, and /favicon.ico for pages that declare none (the sign-in page).

async function expectIcon(request: APIRequestContext, href: string): Promise<void> {
  const response = await request.get(href);
  expect(response.status(), href).toBe(200);
  expect(response.headers()['content-type'], href).toMatch(/^image\/(svg\+xml|x-icon|vnd\.microsoft\.icon)/);
  expect((await response.body()).length, href).toBeGreaterThan(100);
}

test('every viewer page declares an icon the server serves, and /favicon.ico is there too', async ({ page }) => {
  await signIn(page, '/scans');
  const hrefs = await page
    .locator('link[rel="icon"]')
    .evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
  expect(hrefs.map((href) => new URL(href).pathname).sort()).toEqual(['/favicon.ico', '/favicon.svg']);
  for (const href of hrefs) await expectIcon(page.request, href);

  // A deep link is the same index.html: its icons resolve from the root, not under /scans/.
  await page.goto('/organizations');
  const deep = await page
    .locator('link[rel="icon"]')
    .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(deep).toEqual(hrefs);
});

test('the sign-in page, which declares no icon, finds /favicon.ico without a session', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const response = await context.request.get('/favicon.ico');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  } finally {
    await context.close();
  }
});
