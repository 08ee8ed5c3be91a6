import { readFileSync } from 'node:fs';
import type { ScanList, ScanSummary } from '../../src/shared/api/scans';
import { expect, signIn, test } from './fixtures';

// The list as a file: every matching scan (not the page on screen), as the filters say.

test('the filtered list downloads whole as CSV and as JSON', async ({ page }) => {
  await signIn(page, '/scans?tool=Cursor&limit=25');
  const list = (await (await page.request.get('/v1/scans?tool=Cursor&limit=1')).json()) as ScanList;
  expect(list.total).toBeGreaterThan(25);
  const links = page.locator('.list-downloads');
  await expect(links).toContainText(`all ${list.total.toLocaleString('en-US')} scans`);

  const [csv] = await Promise.all([page.waitForEvent('download'), links.getByRole('link', { name: 'CSV' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^scandesk-scans-[\d-]+\.csv$/);
  const records = readFileSync((await csv.path())!, 'utf8')
    .split('\r\n')
    .filter(Boolean);
  expect(records[0]).toMatch(/^id,created_at,tool,/);
  expect(records).toHaveLength(list.total + 1);
  expect(records.slice(1).every((record) => record.split(',')[2] === 'Cursor')).toBe(true);

  const [json] = await Promise.all([page.waitForEvent('download'), links.getByRole('link', { name: 'JSON' }).click()]);
  const rows = JSON.parse(readFileSync((await json.path())!, 'utf8')) as ScanSummary[];
  expect(rows).toHaveLength(list.total);
  expect(new Set(rows.map((row) => row.tool))).toEqual(new Set(['Cursor']));
});
