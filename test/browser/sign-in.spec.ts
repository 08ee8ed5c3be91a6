import { expect, expectAccessible, test } from './fixtures';

// The sign-in form posts the token: it never stands in an address the viewer makes, and a wrong
// one is said beside the field, which stays for the next try.

test.describe('signing in with the form @zones', () => {
  test('a wrong token is said next to the field, and the right one signs in, never through the address', async ({
    page,
  }) => {
    const token = process.env.SCANDESK_TOKEN!;
    const wrong = `sdt_wrong${Date.now()}`;
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));

    await page.goto('/scans?tool=Claude');
    await expect(page.getByRole('heading', { name: 'Sign in to Scandesk' })).toBeVisible();
    await page.getByLabel('Token').fill(wrong);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page.getByRole('alert')).toContainText('That token is not valid on this server');
    await expect(page.getByLabel('Token')).toBeVisible();
    await expect(page.getByLabel('Token')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/scans\?tool=Claude$/);
    await expectAccessible(page);

    await page.getByLabel('Token').fill(token);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page).toHaveURL(/\/scans\?tool=Claude$/);

    for (const secret of [wrong, token, encodeURIComponent(token)]) {
      expect(addresses.filter((url) => url.includes(secret))).toEqual([]);
    }
    expect(addresses.some((url) => url.includes('token='))).toBe(false);
  });
});
