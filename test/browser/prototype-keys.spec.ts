import { cleanupProcesses, startServe, type ServeProcess } from '../helpers/serve-process';
import { expect, test } from './fixtures';

// Tools named like Object.prototype's members are charted like any other, also after a live
// update refetches the stats (the query cache's structural sharing used to drop `__proto__`).

let server: ServeProcess | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
  await cleanupProcesses();
});

const submit = async (tool: string, tokens: number): Promise<void> => {
  const response = await fetch(`${server!.url}/v1/scans`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server!.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tool, action: 'edit', tokens }),
  });
  expect(response.status).toBe(201);
};

test('the overview charts tools named __proto__ and constructor, before and after a live update', async ({ page }) => {
  server = await startServe();
  await submit('__proto__', 5000);
  await submit('constructor', 3000);
  await submit('cursor', 100);
  await page.goto(`${server.url}/?range=90d&token=${encodeURIComponent(server.token)}`);
  const caption = page.getByRole('figure', { name: 'Top tools by tokens' }).locator('figcaption');
  await expect(caption).toContainText('most: __proto__ 5,000, constructor 3,000, cursor 100');
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  await submit('__proto__', 1000);
  await expect(caption).toContainText('most: __proto__ 6,000, constructor 3,000, cursor 100', { timeout: 15_000 });
});
