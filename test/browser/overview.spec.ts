import type { Page } from '@playwright/test';
import { expect, expectAccessible, saveScreenshot, signIn, test } from './fixtures';

// The demo data ends at 2026-11-20T12:00Z: "now" is pinned there so presets always hold data.
const NOW = new Date('2026-11-20T12:00:00.000Z');

const CHARTS = [
  'Tokens over time by tool',
  'Scans and violations over time',
  'Top tools by tokens',
  'Tokens by action',
  'Violations by severity',
  'Violations by rule',
];

async function open(page: Page, path: string): Promise<void> {
  await page.clock.setFixedTime(NOW);
  await signIn(page, path);
}

const chart = (page: Page, title: string) => page.getByRole('figure', { name: title });

test('with 90 days every chart draws data and summarises it in numbers', async ({ page }) => {
  await open(page, '/?range=90d');
  await expect(page.getByRole('button', { name: '90 d' })).toHaveAttribute('aria-pressed', 'true');
  for (const title of CHARTS) {
    const figure = chart(page, title);
    await expect(figure.locator('svg path.recharts-area-area, svg rect.bar-chart-bar').first()).toBeAttached();
    await expect(figure.locator('figcaption')).toContainText(/\d/);
  }
  await expect(chart(page, 'Scans and violations over time').locator('figcaption')).toContainText(/[\d,]+ scans/);
  await saveScreenshot(page, 'overview');
  // The numbers behind a chart are one click away.
  const tools = chart(page, 'Top tools by tokens');
  await tools.getByText('Data table').click();
  await expect(tools.getByRole('table')).toBeVisible();
  await expect(tools.getByRole('rowheader').first()).not.toBeEmpty();
  await expectAccessible(page);
});

test('range presets go to the URL and survive a reload', async ({ page }) => {
  await open(page, '/');
  await expect(page.getByRole('button', { name: '30 d' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: '7 d' }).click();
  await expect(page).toHaveURL(/\?range=7d$/);
  await expect(page.getByText(/Showing in the last 7 days .* by hour\./)).toBeVisible();
  await page.getByRole('button', { name: '24 h' }).click();
  await expect(page).toHaveURL(/\?range=24h$/);
  await page.reload();
  await expect(page.getByRole('button', { name: '24 h' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chart(page, 'Tokens over time by tool').locator('figcaption')).toContainText('in the last 24 hours');
});

test('a custom range goes to the URL, and an empty one says so', async ({ page }) => {
  await open(page, '/');
  await page.getByLabel('From', { exact: true }).fill('2026-11-01');
  await page.getByLabel('To', { exact: true }).fill('2026-11-03');
  await page.getByRole('button', { name: 'Apply custom range' }).click();
  await expect(page).toHaveURL(/since=2026-11-01&until=2026-11-03/);
  await expect(page.getByText(/Showing from 2026-11-01 to 2026-11-03/)).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('2026-11-01');
  await expect(chart(page, 'Tokens over time by tool').locator('svg path.recharts-area-area').first()).toBeAttached();

  await page.goto('/?since=2020-01-01&until=2020-01-02');
  await expect(chart(page, 'Tokens over time by tool')).toContainText('No scans in this range.');
  await expect(chart(page, 'Violations by rule')).toContainText('No violations in this range.');
});

test('junk in the URL falls back to the default range', async ({ page }) => {
  await open(page, '/?range=forever&since=yesterday');
  await expect(page.getByRole('button', { name: '30 d' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chart(page, 'Tokens by action').locator('figcaption')).toContainText(/\d/);
});
