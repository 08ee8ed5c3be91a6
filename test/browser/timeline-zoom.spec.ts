import type { Scan } from '../../src/shared/api/scans';
import { expect, signIn, test } from './fixtures';

// Zooming into a long timeline asks the server for the window's own buckets (from its summary
// pyramid), so the chart counts exactly the requests inside the window, not whole coarse buckets.

test('a zoom window too full for raw entries is drawn from its own buckets, exactly', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, '/scans');
  const t0 = Date.parse('2026-11-19T08:00:00.000Z');
  const timeline = Array.from({ length: 20_000 }, (_, i) => ({
    timestamp: new Date(t0 + i * 1000).toISOString(),
    action: i % 2 ? 'code.read' : 'code.edit',
    tokens: 10 + (i % 7),
  }));
  const submitted = await page.request.post('/v1/scans', {
    headers: { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` },
    data: { tool: 'zoom-timeline', action: 'session', tokens: timeline.reduce((s, e) => s + e.tokens, 0), timeline },
  });
  expect(submitted.status()).toBe(201);
  const scan = (await submitted.json()) as Scan;

  const from = t0 + 1000 * 1000;
  const to = t0 + 15_000 * 1000;
  const windowed = page.waitForRequest((request) => {
    const url = new URL(request.url());
    return url.pathname.endsWith('/evidence/timeline/buckets') && url.searchParams.has('since');
  });
  await page.goto(`/scans/${scan.id}?from=${from}&to=${to}`);
  const asked = new URL((await windowed).url());
  expect(Date.parse(asked.searchParams.get('since')!)).toBe(from);
  // Entries 1,000 to 15,000 inclusive.
  await expect(page.locator('.chart-figure figcaption').first()).toContainText('14,001 of 20,000 requests in');
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(page.locator('.chart-figure figcaption').first()).toContainText('20,000 of 20,000 requests in');
});
