import type { Scan } from '../../src/shared/api/scans';
import { expect, organizationFlaggingEntries, signIn, test } from './fixtures';

// A scan with 100,000 violations: the page shows their counts by rule from the server's summary, and
// a rule's group lists its violations virtualized, a page at a time, so it renders in seconds and
// never holds them all.

const ENTRIES = 100_000;

test('a scan with 100,000 violations renders quickly, with the right counts, and scrolls to the last', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, '/scans');
  const auth = { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` };
  const orgId = await organizationFlaggingEntries(page, 'Many violations');
  // Every tenth entry is a blocked action within the token limit, every other one over the limit:
  // 10,000 high and 90,000 low violations, one per entry.
  const t0 = Date.parse('2026-11-19T08:00:00.000Z');
  const timeline = Array.from({ length: ENTRIES }, (_, i) => ({
    timestamp: new Date(t0 + i * 100).toISOString(),
    action: i % 10 === 0 ? 'shell.exec' : 'code.read',
    tokens: i % 10 === 0 ? 1 : 2,
  }));
  const tokens = timeline.reduce((sum, entry) => sum + entry.tokens, 0);
  const submitted = await page.request.post('/v1/scans', {
    headers: auth,
    data: { tool: 'violations-agent', action: 'session', tokens, organization_id: orgId, timeline },
    timeout: 60_000,
  });
  expect(submitted.status()).toBe(201);
  const scan = (await submitted.json()) as Scan;
  expect(scan).toMatchObject({ violation_count: ENTRIES, violations_truncated: true });

  const whole: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/evidence') && (url.searchParams.get('types') ?? 'violations').includes('violations')) {
      whole.push(url.toString());
    }
  });
  const started = Date.now();
  await page.goto(`/scans/${scan.id}`);
  const card = page.locator('section[aria-labelledby="violations-heading"]');
  await expect(card.getByRole('heading', { name: 'Violations (100,000)' })).toBeVisible();
  const blockedGroup = card.getByRole('button', { name: /action\.blocked/ });
  // Within the time the page is allowed below: the groups wait for the summary's counts.
  await expect(blockedGroup).toContainText('10,000 violations', { timeout: 10_000 });
  await blockedGroup.click();
  await expect(card.locator('.violations-list li').first()).toContainText('action "shell.exec" is blocked');
  const rendered = Date.now() - started;
  // Was a minute and more; a few hundred milliseconds here, with room for a loaded machine.
  expect(rendered).toBeLessThan(10_000);

  await expect(card.locator('.violation-severities')).toHaveText(/10,000 high\s*90,000 low/);
  const rules = card.locator('.violation-groups > li');
  await expect(rules).toHaveCount(2);
  await expect(rules.nth(0)).toHaveText(/low\s*tokens\.request_limit\s*90,000 violations/);
  await expect(rules.nth(1)).toHaveText(/high\s*action\.blocked\s*10,000 violations/);
  // Only the rows in view are in the document.
  expect(await card.locator('.violations-list li').count()).toBeLessThan(100);

  // The last violation (of the larger rule) is reached by scrolling, fetched as its page comes into
  // view. Rows are measured as they appear, so the list's height settles after a scroll or two, as
  // for a person.
  await blockedGroup.click();
  await card.getByRole('button', { name: /tokens\.request_limit/ }).click();
  const last = card.getByRole('button', { name: 'Show entry #99999' });
  await expect(async () => {
    await card.locator('.violations-scroll').evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect(last).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await last.click();
  await expect(page).toHaveURL(/entry=99999/);
  const row = page.locator('tr[data-entry="99999"]');
  await expect(row).toHaveAttribute('aria-current', 'true');
  // The entries table counts the entry's violation from the per-entry counts.
  await expect(row.locator('td').last()).toHaveText('1');
  expect(await card.locator('.violations-list li').count()).toBeLessThan(100);
  expect(whole).toEqual([]);
});
