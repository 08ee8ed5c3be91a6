import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';

// A sign-in link another program opens (mail, chat, a page that launches the browser) reaches the
// server as a navigation the browser started itself (Sec-Fetch-Site: none), exactly like a typed
// one: page.goto is that navigation. It must not switch a signed-in viewer to another account unasked.

const A = (): string => process.env.SCANDESK_URL!;

async function createUser(name: string): Promise<string> {
  const created = await fetch(`${A()}/v1/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.SCANDESK_TOKEN!}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { token: string }).token;
}

const topBar = (page: Page) => page.getByRole('banner');
const whoAmI = async (page: Page): Promise<string> =>
  ((await (await page.request.get(`${A()}/v1/me`)).json()) as { name: string }).name;

test('a link for another account asks first, shows who is signed in, and leaves no token behind', async ({ page }) => {
  const name = `mallory-${Date.now()}`;
  const link = `${A()}/scans?token=${encodeURIComponent(await createUser(name))}&tool=Claude`;
  await signIn(page);
  await expect(topBar(page).getByText('Signed in as local')).toBeVisible();

  await page.goto(link);
  await expect(page).toHaveURL(`${A()}/sign-in/switch`);
  await expect(page.getByRole('heading', { name: 'Switch account?' })).toBeVisible();
  await expect(
    page.getByText(`You are signed in to Scandesk as local. The link you opened signs in as ${name}.`),
  ).toBeVisible();
  // Nothing changed yet, and Enter would keep the account in use.
  expect(await whoAmI(page)).toBe('local');
  await expect(page.getByRole('button', { name: 'Stay signed in as local' })).toBeFocused();

  await page.getByRole('button', { name: 'Stay signed in as local' }).click();
  await expect(page).toHaveURL(`${A()}/scans?tool=Claude`);
  await expect(topBar(page).getByText('Signed in as local')).toBeVisible();
  expect(await whoAmI(page)).toBe('local');

  await page.goto(link);
  await page.getByRole('button', { name: `Switch to ${name}` }).click();
  await expect(page).toHaveURL(`${A()}/scans?tool=Claude`);
  await expect(topBar(page).getByText(`Signed in as ${name}`)).toBeVisible();
  expect(await whoAmI(page)).toBe(name);

  // Walk the whole history back: the address with the token was never an entry of its own.
  const visited: string[] = [page.url()];
  while ((await page.goBack()) !== null) visited.push(page.url());
  expect(visited.length).toBeGreaterThan(3);
  expect(visited.filter((url) => url.includes('token='))).toEqual([]);
  // The question, revisited, has been answered.
  expect(visited).toContain(`${A()}/sign-in/switch`);
});

test('a link for the account already signed in refreshes it without asking', async ({ page }) => {
  await signIn(page);
  await page.goto(`${A()}/organizations?token=${encodeURIComponent(process.env.SCANDESK_TOKEN!)}`);
  await expect(page).toHaveURL(`${A()}/organizations`);
  await expect(topBar(page).getByText('Signed in as local')).toBeVisible();
});

test('a page on another origin cannot answer the question', async ({ page, context }) => {
  const name = `eve-${Date.now()}`;
  const token = await createUser(name);
  await signIn(page);
  await page.goto(`${A()}/?token=${encodeURIComponent(token)}`);
  await expect(page.getByRole('heading', { name: 'Switch account?' })).toBeVisible();
  const nonce = await page.locator('input[name="nonce"]').inputValue();

  // Even knowing the nonce, a form on another origin (another port of this host) is refused.
  const other = await context.newPage();
  const attacker = A().replace(/:(\d+)$/, (_m, port: string) => `:${Number(port) === 65535 ? 1 : Number(port) + 1}`);
  await other.route(`${attacker}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body:
        `<form id="f" method="post" action="${A()}/sign-in/switch">` +
        `<input name="action" value="switch"><input name="nonce" value="${nonce}"></form>`,
    }),
  );
  await other.goto(`${attacker}/`);
  const [answered] = await Promise.all([
    other.waitForResponse(`${A()}/sign-in/switch`),
    other.locator('#f').evaluate((form: HTMLFormElement) => form.submit()),
  ]);
  expect(answered.status()).toBe(403);
  expect(await whoAmI(page)).toBe('local');
});
