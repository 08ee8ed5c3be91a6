import type { Page } from '@playwright/test';
import type { Scan } from '../../src/shared/api/scans';
import { expect, organizationFlaggingEntries, signIn, test } from './fixtures';

// A scan with many violations of one rule: the violations card lists them grouped by rule with
// counts, each group opening to its violations and their entries, and the timeline stays in the
// first screen. Zooming the timeline lists only the zoomed window's entries.

test.use({ viewport: { width: 1400, height: 900 } });

const auth = () => ({ Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` });
const T0 = Date.parse('2026-11-19T08:00:00.000Z');
const ENTRIES = 200;
/** 57 entries over the per-request limit of one token, and one blocked action within it. */
const OVER = Array.from({ length: 57 }, (_, k) => 1 + 3 * k);
const BLOCKED = 101;

async function scanWith58Violations(page: Page): Promise<Scan> {
  const orgId = await organizationFlaggingEntries(page, 'Fifty-eight');
  const timeline = Array.from({ length: ENTRIES }, (_, i) => ({
    timestamp: new Date(T0 + i * 1000).toISOString(),
    action: i === BLOCKED ? 'shell.exec' : 'code.read',
    tokens: OVER.includes(i) ? 2 : 1,
  }));
  const tokens = timeline.reduce((sum, entry) => sum + entry.tokens, 0);
  const submitted = await page.request.post('/v1/scans', {
    headers: auth(),
    data: {
      tool: 'grouping-agent',
      // As its entries: specs that pick a recent scan filter its entries by the scan's action.
      action: 'code.read',
      tokens,
      organization_id: orgId,
      timeline,
      token_breakdown: { input: tokens - 50, output: 50 },
    },
  });
  expect(submitted.status()).toBe(201);
  const scan = (await submitted.json()) as Scan;
  expect(scan.violation_count).toBe(58);
  return scan;
}

test('58 violations, 57 of one rule: grouped by rule with counts, each group linking to its entries, the timeline above the fold @zones', async ({
  page,
}) => {
  await signIn(page, '/scans');
  const scan = await scanWith58Violations(page);
  await page.goto(`/scans/${scan.id}`);
  const card = page.locator('section[aria-labelledby="violations-heading"]');
  await expect(card.getByRole('heading', { name: 'Violations (58)' })).toBeVisible();

  const groups = card.getByRole('list', { name: 'Violations by rule' }).getByRole('listitem');
  await expect(groups).toHaveCount(2);
  const requestLimit = card.getByRole('button', { name: /tokens\.request_limit/ });
  const blocked = card.getByRole('button', { name: /action\.blocked/ });
  await expect(requestLimit).toContainText('57 violations');
  await expect(blocked).toContainText('1 violation');
  // Collapsed: the card holds two lines, not 58.
  await expect(requestLimit).toHaveAttribute('aria-expanded', 'false');
  await expect(card.getByRole('button', { name: /^Show entry/ })).toHaveCount(0);

  // The whole timeline chart is in the first screen, and the breakdown card beside is its own height.
  const chart = page.locator('.scan-timeline-chart').first();
  await expect(chart).toBeVisible();
  const box = (await chart.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(900);
  const breakdown = (await page.locator('section[aria-labelledby="breakdown-heading"]').boundingBox())!;
  const figure = (await page.locator('section[aria-labelledby="breakdown-heading"] figure').boundingBox())!;
  expect(breakdown.height - figure.height).toBeLessThan(120);

  // A group opens to its own violations, each linking to its entry.
  await blocked.click();
  await expect(blocked).toHaveAttribute('aria-expanded', 'true');
  await card.getByRole('button', { name: `Show entry #${BLOCKED}` }).click();
  await expect(page).toHaveURL(new RegExp(`entry=${BLOCKED}`));
  const row = page.locator(`.entries-table tr[data-entry="${BLOCKED}"]`);
  await expect(row).toHaveClass(/highlighted/);
  await expect(row).toBeInViewport();
  await expect(row).toContainText('shell.exec');

  await requestLimit.click();
  const list = card
    .getByRole('region', { name: 'Violations of tokens.request_limit' })
    .or(card.getByLabel('Violations of tokens.request_limit'));
  await expect(list.getByRole('button', { name: /^Show entry/ }).first()).toHaveText(`Show entry #${OVER[0]}`);
  // The group lists its 57 violations only, the last reached by scrolling.
  const last = list.getByRole('button', { name: `Show entry #${OVER.at(-1)}` });
  await expect(async () => {
    await list.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect(last).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(list.getByRole('button', { name: `Show entry #${BLOCKED}` })).toHaveCount(0);
  await last.click();
  await expect(page).toHaveURL(new RegExp(`entry=${OVER.at(-1)}`));
  await expect(page.locator(`.entries-table tr[data-entry="${OVER.at(-1)}"]`)).toHaveClass(/highlighted/);
});

test('zooming the timeline lists only the zoomed window’s entries @zones', async ({ page }) => {
  await signIn(page, '/scans');
  const scan = await scanWith58Violations(page);
  // Entries 10 to 40 inclusive: 31 of 200.
  await page.goto(`/scans/${scan.id}?from=${T0 + 10_000}&to=${T0 + 40_000}`);
  await expect(page.getByText('31 of 200 entries')).toBeVisible();
  const rows = page.locator('.entries-table tbody tr[data-entry]');
  await expect(rows.first()).toHaveAttribute('data-entry', '10');
  const scroller = page.locator('.timeline-entries-scroll');
  await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(rows.last()).toHaveAttribute('data-entry', '40');
  await expect(page.locator('.entries-table tr[data-entry="41"]')).toHaveCount(0);

  // The action filter applies within the window.
  await page.getByLabel('Filter entries by action').fill('shell.exec');
  await expect(page.getByText('0 of 200 entries')).toBeVisible();
  await page.getByLabel('Filter entries by action').fill('');

  // Reset zoom lists them all again.
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(page.getByText('200 of 200 entries')).toBeVisible();

  // Moving the brush's handle zooms, and the list follows the window the URL says.
  await page.locator('.recharts-brush-traveller').first().focus();
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/from=\d+/);
  const from = Number(new URL(page.url()).searchParams.get('from'));
  const to = Number(new URL(page.url()).searchParams.get('to'));
  const inWindow = Array.from({ length: ENTRIES }, (_, i) => T0 + i * 1000).filter((t) => t >= from && t <= to);
  expect(inWindow.length).toBeLessThan(ENTRIES);
  await expect(page.getByText(`${inWindow.length} of 200 entries`)).toBeVisible();
  await expect(rows.first()).toHaveAttribute('data-entry', String((inWindow[0]! - T0) / 1000));
});
