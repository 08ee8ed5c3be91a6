import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { Scan, ScanList } from '../../src/shared/api/scans';
import type { Evidence } from '../../src/shared/api/evidence';
import { expect, expectAccessible, organizationWithPolicy, saveScreenshot, signIn, test } from './fixtures';

const pageLabel = (page: Page) => page.getByRole('navigation', { name: 'Pages' }).locator('.pager-label');
/**
 * Opens a path inside the running app. A reload or page.goto of a nested path such as
 * /scans/scan_… cannot work yet: the renderer build links its assets relative (./assets/…).
 */
async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
}

const rows = (page: Page) => page.locator('.scans-table tbody tr[data-index]');

/** Opens the rule group of the violation at an entry: a scan with many violations starts with them closed. */
async function openViolationGroup(page: Page, scan: Scan, entry: number): Promise<void> {
  const violation = scan.violations.find((v) => v.timeline_index === entry)!;
  const toggle = page
    .locator('.violation-group-toggle')
    .filter({ has: page.locator('code', { hasText: new RegExp(`^${violation.rule.replace(/\./g, '\\.')}$`) }) })
    .filter({ hasText: violation.severity });
  await expect(toggle).toBeVisible();
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
}

/** A demo scan whose violation points at a timeline entry past the first few, found through the API. */
async function scanWithEntryViolation(page: Page): Promise<{ scan: Scan; entry: number }> {
  const list = (await (await page.request.get('/v1/scans?has_violations=true&limit=100')).json()) as ScanList;
  for (const summary of list.scans) {
    const scan = (await (await page.request.get(`/v1/scans/${summary.id}`)).json()) as Scan;
    // A short timeline, charted per request: other specs add scans of 100,000 entries to this store.
    const evidence = await (await page.request.get(`/v1/scans/${summary.id}/evidence?types=token_breakdown`)).json();
    if ((evidence as Evidence).evidence.request_count > 200) continue;
    const violation = scan.violations.find((v) => v.timeline_index !== null && v.timeline_index >= 3);
    if (violation) return { scan, entry: violation.timeline_index! };
  }
  throw new Error('the demo data has no scan with a violation on a later timeline entry');
}

test('filters by tool and violations, pages through, and keeps it all on reload', async ({ page }) => {
  await signIn(page, '/scans');
  await expect(pageLabel(page)).toHaveText(/^1–50 of [\d,]+$/);

  await page.keyboard.press('/');
  await expect(page.getByLabel('Tool')).toBeFocused();
  await page.keyboard.type('Cursor');
  // The busiest tool starting so comes first; picking it filters by that tool exactly.
  await expect(page.getByRole('option').first()).toContainText(/^Cursor\d/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]tool=Cursor/);
  // The total comes from the filtered answer itself: read off the page, it could still be the
  // tool-only list's while the filtered one is on its way.
  const filtered = page.waitForResponse(
    (response) => response.url().includes('/v1/scans?') && response.url().includes('has_violations=true'),
  );
  await page.getByLabel('Violations').selectOption('true');
  await expect(page).toHaveURL(/has_violations=true/);
  const { total } = (await (await filtered).json()) as { total: number };
  expect(total).toBeGreaterThan(50);
  await expect(pageLabel(page)).toHaveText(`1–50 of ${total.toLocaleString('en-US')}`);
  for (const tool of await page.locator('.scans-table td.col-tool').allTextContents()) expect(tool).toBe('Cursor');
  await expect(page.locator('.scans-table td.col-violation_count .badge').first()).toBeVisible();

  await page.getByRole('button', { name: 'Next →' }).click();
  await expect(page).toHaveURL(/offset=50/);
  await expect(pageLabel(page)).toHaveText(`51–${Math.min(100, total)} of ${total.toLocaleString('en-US')}`);

  await page.reload();
  await expect(page).toHaveURL(/tool=Cursor/);
  await expect(page).toHaveURL(/offset=50/);
  await expect(pageLabel(page)).toHaveText(`51–${Math.min(100, total)} of ${total.toLocaleString('en-US')}`);
  await expect(page.getByLabel('Tool')).toHaveValue('Cursor');
  await expect(page.getByLabel('Violations')).toHaveValue('true');

  await page.getByRole('button', { name: '← Previous' }).click();
  await expect(pageLabel(page)).toHaveText(/^1–50 of /);
  await expectAccessible(page);
  await saveScreenshot(page, 'scans');
});

/** Tokens of every row of the current page, read while scrolling through the virtualized table. */
async function pageTokens(page: Page): Promise<number[]> {
  const byIndex = new Map<number, number>();
  // One read of the rows drawn now: the virtualizer may replace them between two locator calls.
  const read = async (): Promise<void> => {
    const drawn = await rows(page).evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-index'), tr.querySelector('td.col-tokens')?.textContent ?? ''] as const),
    );
    for (const [index, tokens] of drawn) byIndex.set(Number(index), Number(tokens.replace(/\D/g, '')));
  };
  const scroller = page.locator('.scans-scroll');
  await read();
  for (let step = 0; step < 20; step++) {
    const done = await scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1);
    if (done) break;
    await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight / 2));
    await page.waitForTimeout(50);
    await read();
  }
  await scroller.evaluate((el) => el.scrollTo(0, 0));
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, tokens]) => tokens);
}

test('sorting by tokens orders the whole list on the server, from the first page, and survives a reload', async ({
  page,
}) => {
  await signIn(page, '/scans');
  const tokensHeader = page.getByRole('columnheader', { name: 'Tokens' });
  const timeHeader = page.getByRole('columnheader', { name: 'Time' });
  await expect(timeHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(tokensHeader).not.toHaveAttribute('aria-sort');
  const newestFirst = (await (await page.request.get('/v1/scans?limit=50')).json()) as ScanList;
  const mostFirst = (await (await page.request.get('/v1/scans?limit=50&sort=-tokens')).json()) as ScanList;

  await page.getByRole('button', { name: 'Next →' }).click();
  await expect(page).toHaveURL(/offset=50/);
  await tokensHeader.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sort=-tokens/);
  await expect(page).not.toHaveURL(/offset=/);
  await expect(pageLabel(page)).toHaveText(/^1–50 of /);
  await expect(tokensHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(timeHeader).not.toHaveAttribute('aria-sort');
  await expect(rows(page).first().locator('td.col-id')).toHaveText(mostFirst.scans[0]!.id);

  const check = async (): Promise<void> => {
    const tokens = await pageTokens(page);
    expect(tokens).toHaveLength(50);
    expect(tokens).toEqual([...tokens].sort((a, b) => b - a));
    expect(tokens).toEqual(mostFirst.scans.map((s) => s.tokens));
    // The whole list, not this page: its first row tops every scan of the newest page.
    expect(tokens[0]).toBeGreaterThanOrEqual(Math.max(...newestFirst.scans.map((s) => s.tokens)));
  };
  await check();

  await page.reload();
  await expect(page).toHaveURL(/[?&]sort=-tokens/);
  await expect(tokensHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(rows(page).first().locator('td.col-id')).toHaveText(mostFirst.scans[0]!.id);
  await check();

  await tokensHeader.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sort=tokens/);
  await expect(tokensHeader).toHaveAttribute('aria-sort', 'ascending');
  await timeHeader.getByRole('button').click();
  await expect(page).not.toHaveURL(/sort=/);
  await expect(timeHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(rows(page).first().locator('td.col-id')).toHaveText(newestFirst.scans[0]!.id);
  await expectAccessible(page);
});

test('j/k select a row, Enter opens it, and Back returns to the filtered list', async ({ page }) => {
  await signIn(page, '/scans?has_violations=true');
  await expect(rows(page).first()).toBeVisible();
  await page.locator('h1').click();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  const selected = page.locator('.scans-table tbody tr.selected');
  await expect(selected).toHaveAttribute('data-index', '1');
  const id = await selected.locator('td.col-id').textContent();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/scans/${id}$`));
  await expect(page.getByText(id!, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: '← Back to scans' }).click();
  await expect(page).toHaveURL(/\/scans\?has_violations=true$/);
});

test('a scan with violations: timeline chart, entries, jump to an entry, download its evidence', async ({ page }) => {
  await signIn(page, '/scans');
  const { scan, entry } = await scanWithEntryViolation(page);
  await openInApp(page, `/scans/${scan.id}`);
  await expect(page.getByRole('heading', { name: 'Evidence timeline' })).toBeVisible();
  await expect(page.locator('.chart-figure figcaption').last()).toContainText('Tokens per request');
  await expect(page.locator('.scan-timeline-chart svg').first()).toBeVisible();
  await expect(page.locator('.entries-table tbody tr[data-entry]').first()).toBeVisible();

  await openViolationGroup(page, scan, entry);
  await page
    .getByRole('button', { name: `Show entry #${entry}` })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`entry=${entry}`));
  const row = page.locator(`.entries-table tr[data-entry="${entry}"]`);
  await expect(row).toHaveClass(/highlighted/);
  await expect(row).toBeInViewport();

  // Zoom: move the brush's left handle (it takes arrow keys); the window lands in the URL and the caption says what is shown.
  await page.locator('.recharts-brush-traveller').first().focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/from=\d+&to=\d+|to=\d+.*from=\d+/);
  await expect(page.getByRole('button', { name: 'Reset zoom' })).toBeVisible();
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(page).not.toHaveURL(/from=/);

  await page.getByLabel('Filter entries by action').fill(scan.action);
  await expect(page).toHaveURL(/action=/);
  await expect(page.locator('.entries-table tbody tr[data-entry]').first()).toContainText(scan.action);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download evidence' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`scandesk-evidence-${scan.id}.zip`);
  const bytes = readFileSync((await download.path())!);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');

  await expectAccessible(page);
  await saveScreenshot(page, 'scan-detail');
});

test('an unknown scan says so', async ({ page }) => {
  await signIn(page, '/scans');
  await openInApp(page, '/scans/scan_DOESNOTEXIST');
  await expect(page.getByRole('alert')).toContainText('Scan not found');
});

test('a scan detail deep link survives a reload', async ({ page }) => {
  await signIn(page, '/scans/scan_DOESNOTEXIST?entry=3');
  await expect(page.getByRole('alert')).toContainText('Scan not found');
  await page.reload();
  await expect(page).toHaveURL(/\/scans\/scan_DOESNOTEXIST\?entry=3$/);
  await expect(page.getByRole('alert')).toContainText('Scan not found');
});

test('a 5,000-entry timeline: the entries table pages as it scrolls and jumps to a late violation', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page, '/scans');
  const orgId = await organizationWithPolicy(page, `Long timeline ${Date.now()}`, { blocked_actions: ['deploy.prod'] });
  // One blocked action, near the end: its row is on the last 1,000-entry page.
  const blocked = 4990;
  const t0 = Date.parse('2026-11-20T08:00:00.000Z');
  const timeline = Array.from({ length: 5000 }, (_, i) => ({
    timestamp: new Date(t0 + i * 1000).toISOString(),
    action: i === blocked ? 'deploy.prod' : i % 2 ? 'code.read' : 'code.edit',
    tokens: 10 + (i % 7),
  }));
  const submitted = await page.request.post('/v1/scans', {
    headers: { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` },
    data: {
      tool: 'long-timeline',
      action: 'session',
      tokens: timeline.reduce((sum, entry) => sum + entry.tokens, 0),
      organization_id: orgId,
      timeline,
    },
  });
  expect(submitted.status()).toBe(201);
  const scan = (await submitted.json()) as Scan;
  expect(scan.violations.map((v) => v.timeline_index)).toEqual([blocked]);

  await openInApp(page, `/scans/${scan.id}`);
  await expect(page.getByText('5,000 of 5,000 entries')).toBeVisible();
  await expect(page.locator('.entries-table tr[data-entry="0"]')).toBeVisible();
  await expect(page.locator('.chart-figure figcaption').last()).toContainText('time buckets');

  const scroller = page.locator('.timeline-entries-scroll');
  await scroller.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  const last = page.locator('.entries-table tr[data-entry="4999"]');
  await expect(last).toBeVisible();
  await expect(last.locator('td').nth(2)).toHaveText('code.read');

  await scroller.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect(page.locator('.entries-table tr[data-entry="0"]')).toBeVisible();
  await page.getByRole('button', { name: `Show entry #${blocked}` }).click();
  await expect(page).toHaveURL(new RegExp(`entry=${blocked}`));
  const row = page.locator(`.entries-table tr[data-entry="${blocked}"]`);
  await expect(row).toHaveClass(/highlighted/);
  await expect(row).toBeInViewport();
  await expect(row).toContainText('deploy.prod');

  // The exact action filter is the server's: one entry, counted against all 5,000.
  await page.getByLabel('Filter entries by action').fill('deploy.prod');
  await expect(page.getByText('1 of 5,000 entries')).toBeVisible();
  await expect(page.locator('.entries-table tbody tr[data-entry]')).toHaveCount(1);
});
