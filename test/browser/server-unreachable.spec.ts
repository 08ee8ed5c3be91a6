import { expect, expectAccessible, signIn, test } from './fixtures';

// No answer from the server is one fact about the page: one banner with Retry, not a red line in
// every card, and it goes by itself when the server answers again.

const origin = (): string => new URL(process.env.SCANDESK_URL!).origin;

test.describe('a server that does not answer @zones', () => {
  test('is said once per page, with Retry, and the page recovers when it answers again', async ({ page }) => {
    // Waits out retries and a private server's start: more than a quick page check on a loaded machine.
    test.slow();
    await signIn(page, '/?range=24h');
    const cards = page.locator('.overview-grid figure');
    await expect(cards.first()).toBeVisible();

    await page.route('**/v1/**', (route) => route.abort('connectionrefused'));
    // A range not asked for yet: every card asks the server, and none gets an answer.
    await page.getByRole('group', { name: 'Time range' }).getByRole('button').nth(2).click();
    const banner = page.getByRole('alert').filter({ hasText: "Can't reach the Scandesk server" });
    await expect(banner).toHaveCount(1, { timeout: 15_000 });
    await expect(banner).toContainText(`Can't reach the Scandesk server at ${origin()}`);
    await expect(page.getByRole('alert')).toHaveCount(1);
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);
    // Several cards found no answer, and it is said once, above them.
    await expect.poll(() => page.getByText('Waiting for the server…').count()).toBeGreaterThan(1);
    await expectAccessible(page);

    // Retry asks again at once; while nothing answers, the banner stays.
    let asked = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/')) asked += 1;
    });
    await banner.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => asked).toBeGreaterThan(0);
    await expect(banner).toHaveCount(1);

    await page.unroute('**/v1/**');
    await expect(banner).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByText('Waiting for the server…')).toHaveCount(0);
    await expect(cards.first()).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('before the first answer the page is the banner alone, and it recovers by itself', async ({ page }) => {
    // Waits out retries and a private server's start: more than a quick page check on a loaded machine.
    test.slow();
    await signIn(page, '/scans');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.route('**/v1/**', (route) => route.abort('connectionrefused'));
    await page.reload();
    const banner = page.getByRole('alert').filter({ hasText: `Can't reach the Scandesk server at ${origin()}` });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);

    // Nobody presses Retry: the page asks again on its own.
    await page.unroute('**/v1/**');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 15_000 });
    await expect(banner).toHaveCount(0);
    await expect(page.getByRole('table').first()).toBeVisible();
  });
});
