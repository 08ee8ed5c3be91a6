import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, saveScreenshot, test } from './fixtures';

const hint = (token: string): string => `${token.slice(0, 4)}…${token.slice(-4)}`;
const owner = () => ({ Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` });

async function newUser(request: APIRequestContext, name: string): Promise<{ id: string; token: string }> {
  const created = await request.post('/v1/users', { headers: owner(), data: { name } });
  expect(created.status()).toBe(201);
  const body = (await created.json()) as { user: { id: string }; token: string };
  return { id: body.user.id, token: body.token };
}

async function newToken(request: APIRequestContext, userId: string): Promise<string> {
  const created = await request.post(`/v1/users/${userId}/tokens`, { headers: owner() });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { token: string }).token;
}

const works = async (request: APIRequestContext, token: string): Promise<boolean> =>
  (await request.get('/v1/me', { headers: { Authorization: `Bearer ${token}` } })).ok();

test("the owner sees their tokens and any user's, and revokes one", async ({ signedIn: page, request }) => {
  const name = `tokens-user-${Date.now()}`;
  const user = await newUser(request, name);
  const spare = await newToken(request, user.id);
  await page.goto('/settings');
  const card = page.locator('.settings-card', { has: page.getByRole('heading', { name: 'Tokens' }) });
  const table = card.getByRole('table', { name: 'Tokens' });
  // Their own first: the data directory's token, with when it was made and last used.
  await expect(table.getByRole('row')).not.toHaveCount(1);
  await expect(table.getByText(hint(process.env.SCANDESK_TOKEN!), { exact: true })).toBeVisible();

  await card.getByLabel('Tokens of').selectOption({ label: name });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByText(hint(user.token), { exact: true })).toBeVisible();
  const spareRow = table.getByRole('row', { name: new RegExp(hint(spare)) });
  await expect(spareRow).toContainText('never');
  await expectAccessible(page);
  await saveScreenshot(page, 'settings-tokens');

  await card.getByRole('button', { name: `Revoke token ${hint(spare)}` }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  expect(await works(request, spare)).toBe(false);
  expect(await works(request, user.token)).toBe(true);
});

test("revoking the data directory's own token is refused, with the reason", async ({ signedIn: page, request }) => {
  await page.goto('/settings');
  const card = page.locator('.settings-card', { has: page.getByRole('heading', { name: 'Tokens' }) });
  await card.getByRole('button', { name: `Revoke token ${hint(process.env.SCANDESK_TOKEN!)}` }).click();
  await expect(card.getByRole('alert')).toContainText('rotate it instead');
  expect(await works(request, process.env.SCANDESK_TOKEN!)).toBe(true);
});

test('a user manages only their own tokens; revoking the one they signed in with signs them out', async ({
  page,
  request,
}) => {
  const user = await newUser(request, `tokens-self-${Date.now()}`);
  const other = await newToken(request, user.id);
  await page.goto(`/settings?token=${encodeURIComponent(user.token)}`);
  const card = page.locator('.settings-card', { has: page.getByRole('heading', { name: 'Tokens' }) });
  const table = card.getByRole('table', { name: 'Tokens' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(card.getByLabel('Tokens of')).toHaveCount(0);

  await card.getByRole('button', { name: `Revoke token ${hint(user.token)}` }).click();
  // The session that token signed in has ended with it.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Scandesk' })).toBeVisible();
  expect(await works(request, user.token)).toBe(false);
  expect(await works(request, other)).toBe(true);
});

test('the owner issues a token for a user: shown once, with a copy button, and it works', async ({
  signedIn: page,
  request,
}) => {
  const name = `tokens-new-${Date.now()}`;
  const user = await newUser(request, name);
  await page.goto('/settings');
  const card = page.locator('.settings-card', { has: page.getByRole('heading', { name: 'Tokens' }) });
  const table = card.getByRole('table', { name: 'Tokens' });
  await card.getByLabel('Tokens of').selectOption({ label: name });
  await expect(table.getByRole('row')).toHaveCount(2);

  await card.getByRole('button', { name: 'New token' }).click();
  const panel = card.getByRole('region', { name: 'New token' });
  await expect(panel).toContainText('will not be shown again');
  await expect(panel.getByRole('button', { name: 'Copy new token' })).toBeVisible();
  const token = (await panel.getByTestId('new-token').textContent()) ?? '';
  expect(token).toMatch(/^sdt_/);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByText(hint(token), { exact: true })).toBeVisible();
  const me = await request.get('/v1/me', { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { id: string }).id).toBe(user.id);
  await expectAccessible(page);

  await panel.getByRole('button', { name: 'Done' }).click();
  await expect(panel).toHaveCount(0);
  // Another user's tokens: a token issued for the first one is not shown beside them.
  await card.getByRole('button', { name: 'New token' }).click();
  await expect(panel).toBeVisible();
  await card.getByLabel('Tokens of').selectOption({ index: 0 });
  await expect(panel).toHaveCount(0);
});

test("the owner rotates a user's tokens after confirming: the old ones stop working", async ({
  signedIn: page,
  request,
}) => {
  const name = `tokens-rotate-${Date.now()}`;
  const user = await newUser(request, name);
  const spare = await newToken(request, user.id);
  await page.goto('/settings');
  const card = page.locator('.settings-card', { has: page.getByRole('heading', { name: 'Tokens' }) });
  const table = card.getByRole('table', { name: 'Tokens' });
  await card.getByLabel('Tokens of').selectOption({ label: name });
  await expect(table.getByRole('row')).toHaveCount(3);

  // Nothing happens until confirmed; Cancel leaves every token working.
  await card.getByRole('button', { name: 'Rotate all…' }).click();
  const confirm = card.getByRole('group', { name: /Rotate all of tokens-rotate-\d+’s tokens\?/ });
  await expect(confirm).toContainText('signed out');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect(await works(request, user.token)).toBe(true);
  expect(await works(request, spare)).toBe(true);

  await card.getByRole('button', { name: 'Rotate all…' }).click();
  await confirm.getByRole('button', { name: 'Rotate all tokens' }).click();
  const panel = card.getByRole('region', { name: 'New token' });
  await expect(panel).toContainText('will not be shown again');
  const token = (await panel.getByTestId('new-token').textContent()) ?? '';
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByText(hint(token), { exact: true })).toBeVisible();
  expect(await works(request, token)).toBe(true);
  const old = await request.get('/v1/me', { headers: { Authorization: `Bearer ${user.token}` } });
  expect(old.status()).toBe(401);
  expect(await works(request, spare)).toBe(false);
  // The owner's own session is untouched.
  await expect(page.getByRole('link', { name: /Signed in as/ })).toBeVisible();
  expect((await page.request.get('/v1/me')).status()).toBe(200);
});

test('a user rotating their own tokens keeps the new token in sight after their session ends', async ({
  page,
  request,
}) => {
  const name = `tokens-own-${Date.now()}`;
  const user = await newUser(request, name);
  await page.clock.install();
  await page.goto(`/settings?token=${encodeURIComponent(user.token)}`);
  const card = page.locator('.settings-card', { has: page.getByRole('heading', { name: 'Tokens' }) });
  const table = card.getByRole('table', { name: 'Tokens' });
  await expect(table.getByRole('row')).toHaveCount(2);

  await card.getByRole('button', { name: 'Rotate all…' }).click();
  const confirm = card.getByRole('group', { name: /Rotate all of your tokens\?/ });
  await expect(confirm).toContainText('this one too');
  await confirm.getByRole('button', { name: 'Rotate all tokens' }).click();
  const panel = card.getByRole('region', { name: 'New token' });
  await expect(panel).toContainText('will not be shown again');
  const first = (await panel.getByTestId('new-token').textContent()) ?? '';
  expect(await works(request, user.token)).toBe(false);
  expect(await works(request, first)).toBe(true);
  // This browser's session ended with the rotation.
  expect((await page.request.get('/v1/me')).status()).toBe(401);

  // The viewer asks who it is again (the window regains focus once its answer is stale) and is
  // refused: the token stays in sight rather than the sign-in screen taking over.
  const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/me' && r.status() === 401);
  await page.clock.fastForward('01:00');
  await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
  await refused;
  await expect(panel.getByTestId('new-token')).toHaveText(first);
  await expect(page.getByRole('heading', { name: 'Sign in to Scandesk' })).toHaveCount(0);
  await expectAccessible(page);
  await saveScreenshot(page, 'settings-tokens-rotated-own');

  // One click signs this browser in again with the new token.
  await panel.getByRole('button', { name: 'Sign in with the new token' }).click();
  await expect(page).not.toHaveURL(/token=/);
  await expect(page.getByRole('link', { name: /Signed in as/ })).toContainText(name);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByText(hint(first), { exact: true })).toBeVisible();

  // Rotating again and dismissing the token leads to the sign-in screen.
  await card.getByRole('button', { name: 'Rotate all…' }).click();
  await confirm.getByRole('button', { name: 'Rotate all tokens' }).click();
  await expect(panel).toBeVisible();
  const second = (await panel.getByTestId('new-token').textContent()) ?? '';
  await panel.getByRole('button', { name: 'Done, sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Scandesk' })).toBeVisible();
  expect(await works(request, first)).toBe(false);
  expect(await works(request, second)).toBe(true);
});
