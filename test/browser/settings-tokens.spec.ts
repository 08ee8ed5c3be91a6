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
