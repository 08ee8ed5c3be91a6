import { cleanupProcesses, startServe, type ServeProcess } from '../helpers/serve-process';
import { expectAccessible, expect, signIn, test } from './fixtures';

// New scans reach an open viewer without a reload (GET /v1/events), whoever stores them.

const submit = async (base: string, token: string, body: Record<string, unknown>): Promise<{ id: string }> => {
  const response = await fetch(`${base}/v1/scans`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'edit', tokens: 42, ...body }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string };
};
const A = (): string => process.env.SCANDESK_URL!;
const owner = (): string => process.env.SCANDESK_TOKEN!;
const unique = (): string => `live-${Math.random().toString(36).slice(2, 10)}`;

let restarted: ServeProcess | null = null;
test.afterEach(async () => {
  await restarted?.stop();
  restarted = null;
  await cleanupProcesses();
});

test('a submitted scan shows as "1 new scan" on the list, and in it after a click', async ({ page }) => {
  await signIn(page, '/scans');
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  const tool = unique();
  await submit(A(), owner(), { tool });
  const pill = page.getByRole('button', { name: /^1 new scan/ });
  await expect(pill).toBeVisible();
  await expectAccessible(page);
  await pill.click();
  await expect(pill).toBeHidden();
  await expect(page.getByRole('row').nth(1)).toContainText(tool);
});

test('the pill floats over the list: the table does not move when it appears', async ({ page }) => {
  const tool = unique();
  await signIn(page, `/scans?tool=${tool}`);
  await submit(A(), owner(), { tool });
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  const table = page.getByRole('table');
  await expect(table).toContainText(tool);
  const before = await table.boundingBox();
  await submit(A(), owner(), { tool });
  const pill = page.getByRole('button', { name: /^1 new scan/ });
  await expect(pill).toBeVisible();
  expect(await table.boundingBox()).toEqual(before);
  // Over the list, yet nothing covers the pill itself: it is what gets the click.
  const box = (await pill.boundingBox())!;
  const onTop = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x!, y!)?.closest('.new-scans-pill') !== null,
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  expect(onTop).toBe(true);
});

test('the pill counts only scans the filtered list would show', async ({ page }) => {
  const tool = unique();
  await signIn(page, `/scans?tool=${tool}`);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  await submit(A(), owner(), { tool });
  await submit(A(), owner(), { tool: `${tool}-other` });
  await submit(A(), owner(), { tool: `${tool}-other` });
  await submit(A(), owner(), { tool });
  const pill = page.locator('.new-scans-pill');
  await expect(pill).toHaveText(/^2 new scans/);
  // Counting the other tool would go on to 4: give its events time to arrive, then look again.
  await page.waitForTimeout(1000);
  await expect(pill).toHaveText(/^2 new scans/);
});

test('the overview takes in new scans without a reload', async ({ page }) => {
  await signIn(page, '/?range=90d');
  const caption = page.getByRole('figure', { name: 'Scans and violations over time' }).locator('figcaption');
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  await expect(caption).toContainText(/scans/);
  const before = await caption.textContent();
  const count = (text: string | null) => Number(/([\d,]+) scans/.exec(text ?? '')?.[1]?.replaceAll(',', '') ?? NaN);
  await submit(A(), owner(), { tool: unique() });
  await submit(A(), owner(), { tool: unique() });
  await expect.poll(async () => count(await caption.textContent()), { timeout: 15_000 }).toBe(count(before) + 2);
});

test('a restarted server: the viewer reconnects and hears of new scans again', async ({ page }) => {
  restarted = await startServe();
  const { url, port, dataDir, token } = restarted;
  await page.goto(`${url}/scans?token=${encodeURIComponent(token)}`);
  const status = page.getByRole('status').filter({ hasText: /Live|Reconnecting/ });
  await expect(status).toHaveText(/Live/);
  await restarted.stop();
  await expect(status).toHaveText(/Reconnecting/);
  restarted = await startServe({ dataDir, port });
  await expect(status).toHaveText(/Live/, { timeout: 15_000 });
  await submit(url, token, { tool: unique() });
  await expect(page.getByRole('button', { name: /^1 new scan/ })).toBeVisible();
});

test('an answer that is not an event stream does not end live updates: the viewer opens the stream again', async ({
  page,
}) => {
  // A browser's EventSource gives up for good on such an answer (a proxy's 502, a server closing).
  let refused = 0;
  await page.route('**/v1/events', async (route) => {
    if (refused++ === 0) await route.fulfill({ status: 503, body: 'closing' });
    else await route.continue();
  });
  await signIn(page, '/scans');
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 15_000 });
  expect(refused).toBeGreaterThan(1);
  await submit(A(), owner(), { tool: unique() });
  await expect(page.getByRole('button', { name: /^1 new scan/ })).toBeVisible();
});
