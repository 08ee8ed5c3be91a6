import type { Page } from '@playwright/test';
import type { ScanList } from '../../src/shared/api/scans';
import type { ToolList } from '../../src/shared/api/tools';
import { expect, expectAccessible, signIn, test } from './fixtures';

const headers = { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` };
const toolCells = (page: Page) => page.locator('.scans-table td.col-tool');
const suggestions = (page: Page) => page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');

/** Submits one scan of `tool` through the API: a lower-case tool beside the demo's "Cursor". */
async function submit(page: Page, tool: string): Promise<void> {
  const response = await page.request.post('/v1/scans', { headers, data: { tool, action: 'chat', tokens: 7 } });
  expect(response.status()).toBe(201);
}

/** The scans the list answers for `query` (a URL search of GET /v1/scans), as the API counts them. */
async function apiTotal(page: Page, query: string): Promise<number> {
  const response = await page.request.get(`/v1/scans?limit=1&${query}`, { headers });
  expect(response.status()).toBe(200);
  return ((await response.json()) as ScanList).total;
}

test.describe('the tool filter @zones', () => {
  test('typing "cur" suggests Cursor and the other cur… tools, any case, and lists only their scans', async ({
    page,
  }) => {
    // Before the page loads: the page reads its tool list as it opens, and a tool submitted later
    // reaches the suggestions only once that list is read again.
    await submit(page, 'cursor-lab');
    await signIn(page, '/scans');
    const tools = (await (await page.request.get('/v1/tools?prefix=cur', { headers })).json()) as ToolList;
    const names = tools.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['Cursor', 'cursor-lab']));

    await page.getByLabel('Tool').fill('cur');
    await expect(suggestions(page).filter({ hasText: /^Cursor/ })).toBeVisible();
    await expect(suggestions(page).filter({ hasText: /^cursor-lab/ })).toBeVisible();
    for (const text of await suggestions(page).allTextContents()) expect(text.toLowerCase()).toMatch(/^cur/);
    // Each suggestion says how many scans it has.
    const cursor = tools.tools.find((tool) => tool.name === 'Cursor')!;
    await expect(suggestions(page).filter({ hasText: /^Cursor/ })).toContainText(cursor.scans.toLocaleString('en-US'));

    const listed = page.waitForResponse((r) => r.url().includes('/v1/scans?') && r.url().includes('tool_prefix=cur'));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]tool_prefix=cur(&|$)/);
    const { total } = (await (await listed).json()) as ScanList;
    expect(total).toBe(tools.tools.reduce((sum, tool) => sum + tool.scans, 0));
    await expect(page.getByRole('navigation', { name: 'Pages' }).locator('.pager-label')).toContainText(
      `of ${total.toLocaleString('en-US')}`,
    );
    const shown = await toolCells(page).allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    for (const tool of shown) expect(names).toContain(tool);
    // Newest first: the scan just submitted leads, the demo's Cursor scans follow.
    expect(shown[0]).toBe('cursor-lab');
    expect(shown).toContain('Cursor');

    await page.reload();
    await expect(page.getByLabel('Tool')).toHaveValue('cur');
    await expectAccessible(page);
  });

  test('"CURSOR" finds Cursor; picking a suggestion filters by that one tool exactly', async ({ page }) => {
    await signIn(page, '/scans');
    await submit(page, 'cursor-lab');
    await page.getByLabel('Tool').fill('CURSOR');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]tool_prefix=CURSOR(&|$)/);
    await expect(toolCells(page).first()).toBeVisible();
    expect(await apiTotal(page, 'tool_prefix=CURSOR')).toBeGreaterThan(await apiTotal(page, 'tool=Cursor'));

    const field = page.getByLabel('Tool');
    await field.fill('Cursor-');
    await expect(suggestions(page)).toHaveCount(1);
    await page.keyboard.press('ArrowDown');
    await expect(suggestions(page).first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]tool=cursor-lab(&|$)/);
    await expect(page).not.toHaveURL(/tool_prefix=/);
    await expect(field).toHaveValue('cursor-lab');
    await expect(toolCells(page).first()).toHaveText('cursor-lab');
    for (const tool of await toolCells(page).allTextContents()) expect(tool).toBe('cursor-lab');

    // A click picks as well, and leaving the field with the pick unchanged keeps it exact.
    await field.fill('cursor');
    await suggestions(page)
      .filter({ hasText: /^Cursor/ })
      .click();
    await expect(page).toHaveURL(/[?&]tool=Cursor(&|$)/);
    await page.getByLabel('Status').focus();
    await expect(page).toHaveURL(/[?&]tool=Cursor(&|$)/);
    for (const tool of await toolCells(page).allTextContents()) expect(tool).toBe('Cursor');
  });
});

test('a day as Until (UTC, inclusive) lists that whole UTC day, the same scans the API and the CLI give for it @zones', async ({
  page,
}) => {
  const day = '2026-11-19';
  const asked = page.waitForRequest((r) => r.url().includes('/v1/scans?') && r.url().includes('until='));
  await signIn(page, `/scans?since=${day}&until=${day}`);
  const url = new URL((await asked).url());
  // The viewer sends the day as it is: a bare date means the same to every client.
  expect(url.searchParams.get('since')).toBe(day);
  expect(url.searchParams.get('until')).toBe(day);
  const whole = await apiTotal(page, `since=${day}T00:00:00Z&until=2026-11-20T00:00:00Z`);
  expect(whole).toBeGreaterThan(0);
  expect(await apiTotal(page, `since=${day}&until=${day}`)).toBe(whole);
  await expect(page.getByRole('navigation', { name: 'Pages' }).locator('.pager-label')).toContainText(
    `of ${whole.toLocaleString('en-US')}`,
  );
  await expect(page.getByLabel('Until (UTC, inclusive)')).toHaveValue(day);
});
