import type { Page } from '@playwright/test';
import type { Scan, ScanList } from '../../src/shared/api/scans';
import { expect, signIn, test } from './fixtures';

// What the charts say must be true: markers only where violations are, days told apart in the
// chosen time zone, the bucket under way not drawn as a drop, one colour per tool everywhere.

test.use({ timezoneId: 'Asia/Tokyo' });

const headers = () => ({ Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` });
const markers = (page: Page) => page.locator('.scan-timeline-chart .recharts-scatter-symbol');
const caption = (page: Page) => page.locator('.chart-figure figcaption').first();

async function submit(page: Page, data: Record<string, unknown>): Promise<Scan> {
  const response = await page.request.post('/v1/scans', { headers: headers(), data });
  expect(response.status()).toBe(201);
  return (await response.json()) as Scan;
}

test('a scan without violations has no violation markers; one with them has one per flagged point', async ({
  page,
}) => {
  await signIn(page, '/scans');
  const t0 = Date.parse('2026-11-19T09:00:00.000Z');
  const timeline = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      timestamp: new Date(t0 + i * 1000).toISOString(),
      action: i % 50 === 7 ? 'deploy.prod' : 'code.edit',
      tokens: 10 + (i % 5),
    }));
  const clean = await submit(page, { tool: 'markers', action: 'a', tokens: 12 * 3000, timeline: timeline(3000) });
  await page.goto(`/scans/${clean.id}`);
  await expect(caption(page)).toContainText('time buckets');
  await expect(caption(page)).toContainText('0 violations are marked');
  await expect(markers(page)).toHaveCount(0);

  const org = await page.request.post('/v1/organizations', {
    headers: headers(),
    data: { name: `Markers ${Date.now()}` },
  });
  const orgId = ((await org.json()) as { id: string }).id;
  await page.request.put(`/v1/organizations/${orgId}/policy`, {
    headers: headers(),
    data: {
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: ['deploy.prod'],
    },
  });
  const small = timeline(200);
  const flagged = await submit(page, {
    tool: 'markers',
    // An action its entries have: scans.spec filters a flagged scan's entries by it.
    action: 'code.edit',
    tokens: small.reduce((sum, e) => sum + e.tokens, 0),
    organization_id: orgId,
    timeline: small,
  });
  const points = new Set(flagged.violations.map((v) => v.timeline_index)).size;
  expect(points).toBe(4);
  await page.goto(`/scans/${flagged.id}`);
  await expect(caption(page)).toContainText('4 violations are marked');
  await expect(markers(page)).toHaveCount(points);
});

test('a timeline over several days is labelled with dates, in the time zone chosen in Settings', async ({ page }) => {
  await signIn(page, '/settings');
  const t0 = Date.parse('2026-11-16T22:00:00.000Z');
  const timeline = Array.from({ length: 60 }, (_, i) => ({
    timestamp: new Date(t0 + i * 90 * 60_000).toISOString(),
    action: 'code.edit',
    tokens: 5,
  }));
  const scan = await submit(page, { tool: 'days', action: 'a', tokens: 300, timeline });

  await page.getByLabel('Show times in').selectOption('utc');
  await page.goto(`/scans/${scan.id}`);
  await expect(caption(page)).toContainText('from 2026-11-16 22:00:00 to 2026-11-20 14:30:00 (UTC)');
  // The first chart's time axis: ISO dates, at whole UTC days or round hours of them.
  const ticks = page
    .locator('.scan-timeline-chart svg')
    .first()
    .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
  await expect(ticks.first()).toHaveText(/^2026-11-1[7-9]( (00|06|12|18):00)?$/);

  await page.goto('/settings');
  await page.getByLabel('Show times in').selectOption('local');
  await page.goto(`/scans/${scan.id}`);
  // The browser's own zone here is UTC+9 (see test.use below).
  await expect(caption(page)).toContainText('from 2026-11-17 07:00:00 to 2026-11-20 23:30:00 (Asia/Tokyo)');
});

test('the hour under way is not drawn as a drop but said in words', async ({ page }) => {
  await page.clock.setFixedTime(new Date('2026-11-20T12:30:00.000Z'));
  await signIn(page, '/?range=24h');
  const figure = page.getByRole('figure', { name: 'Scans and violations over time' });
  await expect(figure.locator('figcaption')).toContainText('is still under way, 0 scans so far, and is not drawn');
  await figure.getByText('Data table').click();
  // 11:00 and 12:00 UTC are 20:00 and 21:00 in the browser's zone (Asia/Tokyo, below).
  await expect(figure.getByRole('columnheader', { name: 'Period (Asia/Tokyo)' })).toBeVisible();
  await expect(figure.getByRole('row').last()).toContainText('2026-11-20 20:00');
});

test('one tool keeps one colour in every range', async ({ page }) => {
  await page.clock.setFixedTime(new Date('2026-11-20T12:00:00.000Z'));
  const list = (await (
    await page.request.get('/v1/scans?limit=1&tool=ChatGPT', { headers: headers() })
  ).json()) as ScanList;
  expect(list.total).toBeGreaterThan(0);
  const colour = async (range: string) => {
    await signIn(page, `/?range=${range}`);
    const legend = page
      .getByRole('figure', { name: 'Tokens over time by tool' })
      .locator('.recharts-legend-item', { hasText: 'ChatGPT' });
    await expect(legend).toBeVisible();
    return legend.locator('path').first().getAttribute('fill');
  };
  const colours = [await colour('24h'), await colour('7d'), await colour('90d')];
  expect(colours[0]).toBeTruthy();
  expect(new Set(colours).size).toBe(1);
});
