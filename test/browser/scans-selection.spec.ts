import type { Page } from '@playwright/test';
import yauzl from 'yauzl';
import type { ScanList } from '../../src/shared/api/scans';
import { expect, signIn, test } from './fixtures';

// Pick scans in the table (one by one, a shift-click range, the page, all matching) and export
// them as one evidence package.

/** The scan ids inside an evidence package (format 1: scans/<id>/scan.json). */
function packageScanIds(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const ids: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        const match = /^scans\/([^/]+)\/scan\.json$/.exec(entry.fileName);
        if (match) ids.push(match[1]!);
        zip.readEntry();
      });
      zip.on('end', () => resolve(ids.sort()));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const box = (page: Page, id: string) => page.getByRole('checkbox', { name: `Select ${id}` });

test('select rows, a shift-click range and a page, keep them across pages, export them as one package', async ({
  page,
}) => {
  await signIn(page, '/scans?tool=Claude&limit=25');
  const list = (await (await page.request.get('/v1/scans?tool=Claude&limit=50')).json()) as ScanList;
  const ids = list.scans.map((s) => s.id);
  const bar = page.getByRole('region', { name: 'Selection' });

  await box(page, ids[1]!).click();
  await box(page, ids[4]!).click({ modifiers: ['Shift'] });
  await expect(bar).toContainText('4 selected');
  for (const id of ids.slice(1, 5)) await expect(box(page, id)).toBeChecked();
  await expect(box(page, ids[0]!)).not.toBeChecked();

  // The next page: its header checkbox takes all 25; the first page's four stay.
  await page.getByRole('button', { name: /^Next/ }).click();
  await expect(box(page, ids[25]!)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select every scan on this page' }).check();
  await expect(bar).toContainText('29 selected');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    bar.getByRole('button', { name: 'Export evidence (ZIP)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^scandesk-evidence-\d{4}-\d\d-\d\d-\d{6}\.zip$/);
  expect(await packageScanIds((await download.path())!)).toEqual([...ids.slice(1, 5), ...ids.slice(25, 50)].sort());

  await bar.getByRole('button', { name: 'Clear' }).click();
  await expect(bar).toContainText('No scans selected');
});

test('"select all matching" takes every scan of the filtered list, up to the export limit', async ({ page }) => {
  await signIn(page, '/scans?tool=Claude&status=failed');
  const list = (await (await page.request.get('/v1/scans?tool=Claude&status=failed&limit=1')).json()) as ScanList;
  expect(list.total).toBeGreaterThan(0);
  expect(list.total).toBeLessThan(1000);
  const bar = page.getByRole('region', { name: 'Selection' });
  await bar.getByRole('button', { name: `Select all ${list.total.toLocaleString('en-US')} matching` }).click();
  await expect(bar).toContainText(`${list.total.toLocaleString('en-US')} selected`);

  await page.goto('/scans');
  const all = (await (await page.request.get('/v1/scans?limit=1')).json()) as ScanList;
  expect(all.total).toBeGreaterThan(1000);
  await expect(
    page.getByRole('button', { name: `Select the first 1,000 of ${all.total.toLocaleString('en-US')} matching` }),
  ).toBeVisible();
});

test('an export in progress says how many of the selected scans are written so far', async ({ page }) => {
  await signIn(page, '/scans?limit=100');
  const bar = page.getByRole('region', { name: 'Selection' });
  await page.getByRole('checkbox', { name: 'Select every scan on this page' }).check();
  await expect(bar).toContainText('100 selected');
  // Every text the progress shows, however briefly: a fast export may pass in one frame.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { exportProgress: string[] }).exportProgress = seen;
    new MutationObserver(() => {
      const text = document.querySelector('.export-progress')?.textContent?.trim();
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    bar.getByRole('button', { name: 'Export evidence (ZIP)' }).click(),
  ]);
  expect(await packageScanIds((await download.path())!)).toHaveLength(100);
  const seen = await page.evaluate(() => (window as unknown as { exportProgress: string[] }).exportProgress);
  expect(seen.length).toBeGreaterThan(0);
  const counts = seen.map((text) => {
    const match = /^(\d+) of 100 scans$/.exec(text);
    expect(match, text).not.toBeNull();
    return Number(match![1]);
  });
  expect(counts[0]).toBe(0);
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
  await expect(bar.locator('.export-progress')).toHaveCount(0);
});
