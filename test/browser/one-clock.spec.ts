import type { Locator, Page } from '@playwright/test';
import type { Scan } from '../../src/shared/api/scans';
import { expect, signIn, test } from './fixtures';

// One clock: every time the viewer shows follows Settings → Display, says its zone once per view,
// and reads ISO (2026-11-19 09:54:19); time axes tick at round intervals of that zone's clock.
// Tagged @zones: these run in UTC and again with the browser in America/New_York.

const headers = () => ({ Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` });

/** 2026-11-19 09:54:19 UTC, as each zone the suite runs in writes it. */
const FIRST = '2026-11-19T09:54:19.000Z';
const FIRST_IN: Record<string, string> = {
  UTC: '2026-11-19 09:54:19',
  'America/New_York': '2026-11-19 04:54:19',
};

async function browserZone(page: Page): Promise<string> {
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  return zone === 'Etc/UTC' ? 'UTC' : zone;
}

async function showTimesIn(page: Page, choice: 'utc' | 'local'): Promise<void> {
  await page.goto('/settings');
  await page.getByLabel('Show times in').selectOption(choice);
}

async function submit(page: Page, data: Record<string, unknown>): Promise<Scan> {
  const response = await page.request.post('/v1/scans', { headers: headers(), data });
  expect(response.status()).toBe(201);
  return (await response.json()) as Scan;
}

/** A small scan whose entries start at FIRST, `gapMs` apart. */
async function scanFrom(page: Page, tool: string, entries: number, gapMs: number): Promise<Scan> {
  const timeline = Array.from({ length: entries }, (_, i) => ({
    timestamp: new Date(Date.parse(FIRST) + i * gapMs).toISOString(),
    action: 'code.edit',
    tokens: 100 + ((i * 37) % 900),
  }));
  return submit(page, { tool, action: 'code.edit', tokens: timeline.reduce((s, e) => s + e.tokens, 0), timeline });
}

/**
 * An axis's tick labels (recharts draws them in a layer of their own, apart from the axis), once
 * drawn: the header above a chart can show before its data has come.
 */
async function axisLabels(chart: Locator, axis: 'xAxis' | 'yAxis'): Promise<string[]> {
  const labels = chart.locator(`.recharts-${axis}-tick-labels .recharts-cartesian-axis-tick-value`);
  await expect(labels.first()).toBeVisible();
  return labels.allTextContents();
}

const seconds = (clock: string): number => {
  const [h, m, s] = clock.split(':').map(Number);
  return h! * 3600 + m! * 60 + (s ?? 0);
};

test.describe('one clock @zones', () => {
  test('with UTC chosen, the scan page says UTC once and its summary, chart and entries table agree', async ({
    page,
  }) => {
    await signIn(page, '/settings');
    const scan = await scanFrom(page, `clock-utc-${Date.now()}`, 5, 1000);
    await showTimesIn(page, 'utc');
    await page.goto(`/scans/${scan.id}`);

    const summary = page.locator('.scan-summary');
    await expect(summary.getByText('Time (UTC)')).toBeVisible();
    await expect(summary.locator('time')).toHaveText(scan.created_at.replace('T', ' ').replace(/\.\d+Z$/, ''));
    await expect(page.locator('.chart-figure figcaption').first()).toContainText(
      'from 2026-11-19 09:54:19 to 2026-11-19 09:54:23 (UTC)',
    );
    const entries = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Action' }) });
    await expect(entries.getByRole('columnheader', { name: 'Time (UTC)' })).toBeVisible();
    await expect(entries.locator('tbody tr[data-entry="0"] time')).toHaveText('2026-11-19 09:54:19');
  });

  test("with local time chosen, the scans list and a scan's entries show the browser's zone and name it", async ({
    page,
  }) => {
    await signIn(page, '/settings');
    const tool = `clock-local-${Date.now()}`;
    const scan = await scanFrom(page, tool, 3, 1000);
    const zone = await browserZone(page);
    await showTimesIn(page, 'local');

    // The list shows when the scan arrived: compare with the instant the API gives, in this zone.
    await page.goto(`/scans?tool=${tool}`);
    await expect(page.getByRole('columnheader', { name: `Time (${zone})` })).toBeVisible();
    const created = page.locator('tbody time').first();
    await expect(created).toHaveAttribute('datetime', scan.created_at);
    const expected = await page.evaluate(
      ([iso, z]) =>
        new Intl.DateTimeFormat('sv-SE', {
          timeZone: z,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(iso!)),
      [scan.created_at, zone],
    );
    await expect(created).toHaveText(expected);

    await page.goto(`/scans/${scan.id}`);
    await expect(page.getByRole('columnheader', { name: `Time (${zone})` })).toBeVisible();
    await expect(page.locator('tbody tr[data-entry="0"] time')).toHaveText(FIRST_IN[zone]!);

    // Switching the one setting moves the list with it.
    await showTimesIn(page, 'utc');
    await page.goto(`/scans?tool=${tool}`);
    await expect(page.getByRole('columnheader', { name: 'Time (UTC)' })).toBeVisible();
    await expect(page.locator('tbody time').first()).toHaveText(
      scan.created_at.replace('T', ' ').replace(/\.\d+Z$/, ''),
    );
  });

  test("in local time, the overview's header, axis and data table are in one zone and say which", async ({ page }) => {
    await page.clock.setFixedTime(new Date('2026-11-20T12:30:00.000Z'));
    await signIn(page, '/settings');
    const zone = await browserZone(page);
    await showTimesIn(page, 'local');
    await page.goto('/?range=24h');

    // The range ends at the next whole hour: 13:00 UTC.
    const span = {
      UTC: ['2026-11-19 13:00', '2026-11-20 13:00'],
      'America/New_York': ['2026-11-19 08:00', '2026-11-20 08:00'],
    }[zone]!;
    await expect(page.locator('.overview-range')).toContainText(`(${span[0]} to ${span[1]} ${zone}), by hour.`);

    const figure = page.getByRole('figure', { name: 'Scans and violations over time' });
    const ticks = await axisLabels(figure, 'xAxis');
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (const tick of ticks) {
      // The span crosses a day: dated, on whole hours, within the header's span.
      expect(tick).toMatch(/^\d{4}-\d\d-\d\d \d\d:00$/);
      expect(tick >= span[0]! && tick <= span[1]!).toBe(true);
    }
    const hours = ticks.map((tick) => Number(tick.slice(11, 13)));
    const step = (hours[1]! - hours[0]! + 24) % 24;
    expect([1, 2, 3, 6, 12]).toContain(step);
    for (const hour of hours) expect(hour % step).toBe(0);

    await figure.getByText('Data table').click();
    await expect(figure.getByRole('columnheader', { name: `Period (${zone})` })).toBeVisible();
  });

  test('the scan timeline ticks at round intervals, never at the data points, and counts evenly', async ({ page }) => {
    await signIn(page, '/settings');
    // Entries 7.3 s apart from 09:54:19: a tick at a data point would read :19, :26, :33…
    const scan = await scanFrom(page, `clock-ticks-${Date.now()}`, 40, 7300);
    await showTimesIn(page, 'local');
    await page.goto(`/scans/${scan.id}`);
    const chart = page.locator('.scan-timeline-chart svg').first();
    await expect(
      chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').first(),
    ).toBeVisible();

    const ticks = await axisLabels(chart, 'xAxis');
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    // Within one day (in either zone): the clock alone.
    for (const tick of ticks) expect(tick).toMatch(/^\d\d:\d\d(:\d\d)?$/);
    const at = ticks.map(seconds);
    const step = at[1]! - at[0]!;
    expect([1, 2, 5, 10, 15, 30, 60, 120, 300]).toContain(step);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBe(step);
    for (const s of at) expect(s % step).toBe(0);

    const counts = (await axisLabels(chart, 'yAxis')).map(
      (label) => Number(label.replace('K', '')) * (label.endsWith('K') ? 1000 : 1),
    );
    expect(counts[0]).toBe(0);
    const gap = counts[1]! - counts[0]!;
    expect([1, 2, 5]).toContain(gap / 10 ** Math.floor(Math.log10(gap)));
    for (let i = 1; i < counts.length; i++) expect(counts[i]! - counts[i - 1]!).toBe(gap);
  });

  test('dates are typed as YYYY-MM-DD, not in the browser locale, and a wrong one is said so', async ({ page }) => {
    await signIn(page, '/scans');
    const since = page.getByLabel('Since');
    await expect(since).toHaveAttribute('type', 'text');
    await expect(since).toHaveAttribute('placeholder', 'YYYY-MM-DD');
    await since.fill('2026-02-30');
    await since.blur();
    await expect(page.getByRole('alert').filter({ hasText: 'Not a date' })).toBeVisible();
    await expect(page).not.toHaveURL(/since=/);
    await since.fill('2026-11-19');
    await expect(page).toHaveURL(/since=2026-11-19/);
    await expect(page.getByRole('alert').filter({ hasText: 'Not a date' })).toHaveCount(0);

    await page.goto('/?range=7d');
    const from = page.getByLabel('From', { exact: true });
    await expect(from).toHaveAttribute('type', 'text');
    await expect(from).toHaveValue(/^\d{4}-\d\d-\d\d$/);
    await from.fill('11/01/2026');
    await page.getByRole('button', { name: 'Apply custom range' }).click();
    await expect(page.getByText('Enter both dates as YYYY-MM-DD.')).toBeVisible();
    await expect(page).toHaveURL(/range=7d/);
  });
});
