import { expect, expectAccessible, saveScreenshot, test } from './fixtures';

test('settings shows the API URL, a hint of the token (never the token) and a CLI snippet to copy', async ({
  signedIn: page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const token = process.env.SCANDESK_TOKEN!;
  const dataDir = process.env.SCANDESK_DATA_DIR!;
  const settings = page.waitForResponse((response) => response.url().endsWith('/v1/settings'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  // The session cookie is not the token: the page never receives it, not even hidden.
  expect(await (await settings).text()).not.toContain(token);
  const origin = new URL(baseURL!).origin;
  await expect(page.getByTestId('api-url')).toHaveText(origin);
  await expect(page.getByTestId('token')).toHaveText(`${token.slice(0, 4)}…${token.slice(-4)}`);
  await expect(page.getByTestId('cli-snippet')).toHaveText(
    `export SCANDESK_URL=${origin} SCANDESK_DATA_DIR=${dataDir}`,
  );
  await expect(page.getByText(dataDir, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy token' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Copy shell snippet' }).click();
  await expect(page.getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `export SCANDESK_URL=${origin} SCANDESK_DATA_DIR=${dataDir}`,
  );
  await expectAccessible(page);
  await saveScreenshot(page, 'settings');
});

test('sign out ends the session', async ({ signedIn: page }) => {
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Scandesk' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Scandesk' })).toBeVisible();
});

test('another user sees the page without the token, and why', async ({ page, request }) => {
  const created = await request.post('/v1/users', {
    headers: { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` },
    data: { name: `settings-viewer-${Date.now()}` },
  });
  expect(created.status()).toBe(201);
  const { token } = (await created.json()) as { token: string };
  await page.goto(`/settings?token=${encodeURIComponent(token)}`);
  await expect(page.getByText('Only the workspace owner can see the token.')).toBeVisible();
  await expect(page.getByTestId('cli-snippet')).toContainText('SCANDESK_TOKEN=<your-token>');
  await expect(page.getByRole('button', { name: 'Copy token' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Workspace' })).toHaveCount(0);
  await expectAccessible(page);
});
