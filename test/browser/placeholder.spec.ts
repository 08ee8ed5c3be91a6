import { expect, test } from '@playwright/test';

test('the served page shows the app and finds the local API running', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
  await expect(page.getByRole('heading', { name: 'Scandesk' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('running');
});
