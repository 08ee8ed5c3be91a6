import { expect, expectAccessible, signIn, test } from './fixtures';

test('without a session the viewer asks for the token, and the token link signs in', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Scandesk' })).toBeVisible();
  await signIn(page);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import evidence…' })).toBeVisible();
});

test('every main view is reachable from the navigation and keeps its URL on reload', async ({ signedIn: page }) => {
  for (const [label, path] of [
    ['Scans', '/scans'],
    ['Import', '/import'],
    ['Organizations', '/organizations'],
    ['Settings', '/settings'],
    ['Overview', '/'],
  ] as const) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label })).toHaveAttribute(
      'aria-current',
      'page',
    );
  }
  await expectAccessible(page);
});

test('the served pages carry the Content-Security-Policy', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
});
