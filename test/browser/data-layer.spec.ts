import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';

// The demo data ends at 2026-11-20T12:00Z: "now" is pinned there so the overview's presets hold data.
const NOW = new Date('2026-11-20T12:00:00.000Z');
const owner = { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` };
const unique = (label: string): string =>
  `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('renaming an organization shows the new name in the scans filter without a reload @zones', async ({ page }) => {
  const name = unique('Data layer org');
  const created = await page.request.post('/v1/organizations', { headers: owner, data: { name } });
  expect(created.status()).toBe(201);
  const org = (await created.json()) as { id: string };

  await signIn(page, '/scans');
  const options = page.locator('#scans-organization option');
  await expect(options.filter({ hasText: name })).toHaveCount(1);

  // From here on, only the viewer's own links: a reload would refetch everything and hide a stale cache.
  await nav(page).getByRole('link', { name: 'Organizations' }).click();
  await page.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page).toHaveURL(new RegExp(`org=${org.id}`));
  const renamed = `${name} renamed`;
  await page.getByLabel('Organization name', { exact: true }).fill(renamed);
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { level: 2, name: renamed })).toBeVisible();

  await nav(page).getByRole('link', { name: 'Scans' }).click();
  await expect(page).toHaveURL(/\/scans/);
  await expect(options.filter({ hasText: renamed })).toHaveCount(1);
  await expect(options.filter({ hasText: new RegExp(`^${name}$`) })).toHaveCount(0);
});

test('a date that is no calendar day is dropped alike on the scans page and the overview @zones', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/v1\/(scans|stats)/.test(request.url())) asked.push(request.url());
  });
  await page.clock.setFixedTime(NOW);

  // Scans: the impossible Since is no filter (the field empty, the list loads); the real Until stays.
  await signIn(page, '/scans?since=2026-02-30&until=2026-11-19');
  await expect(page.getByRole('navigation', { name: 'Pages' }).locator('.pager-label')).toHaveText(/of [\d,]+$/);
  await expect(page.getByLabel(/^Since/)).toHaveValue('');
  await expect(page.getByLabel(/^Until/)).toHaveValue('2026-11-19');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Overview: a custom range needs two real days, so the same URL shows the default range.
  await page.goto('/?since=2026-02-30&until=2026-11-19');
  await expect(page.getByRole('button', { name: '30 d' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('alert')).toHaveCount(0);

  expect(asked.length).toBeGreaterThan(0);
  expect(asked.filter((url) => url.includes('2026-02-30'))).toEqual([]);
});
