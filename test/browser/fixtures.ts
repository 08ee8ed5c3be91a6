import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Page } from '@playwright/test';
import type { Policy } from '../../src/shared/api/policies';

/** Signs the browser in the way a person does: the token link once, then the session cookie. */
export async function signIn(page: Page, path = '/'): Promise<void> {
  const token = process.env.SCANDESK_TOKEN;
  if (!token) throw new Error('SCANDESK_TOKEN is not set: the global setup did not run');
  const separator = path.includes('?') ? '&' : '?';
  await page.goto(`${path}${separator}token=${encodeURIComponent(token)}`);
  await expect(page).not.toHaveURL(/token=/);
}

/** axe-core: no serious or critical accessibility violations on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length} nodes)`)).toEqual([]);
}

/** A screenshot of a main view, kept under test-results/ as an artifact. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

/** A new organization with `policy` (the rest of it empty). Returns its id. */
export async function organizationWithPolicy(page: Page, name: string, policy: Partial<Policy>): Promise<string> {
  const headers = { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` };
  const org = await page.request.post('/v1/organizations', { headers, data: { name } });
  expect(org.status()).toBe(201);
  const orgId = ((await org.json()) as { id: string }).id;
  const data: Policy = {
    max_tokens_per_scan: null,
    max_tokens_per_request: null,
    allowed_tools: null,
    blocked_tools: [],
    blocked_actions: [],
    ...policy,
  };
  const saved = await page.request.put(`/v1/organizations/${orgId}/policy`, { headers, data });
  expect(saved.status()).toBe(200);
  return orgId;
}

/**
 * A new organization whose policy makes violations easy to count: every entry over one token is a
 * `tokens.request_limit` violation, every `shell.exec` entry an `action.blocked` one. Returns its id.
 */
export const organizationFlaggingEntries = (page: Page, name: string): Promise<string> =>
  organizationWithPolicy(page, name, { max_tokens_per_request: 1, blocked_actions: ['shell.exec'] });

export const test = base.extend<{ signedIn: Page }>({
  signedIn: async ({ page }, use) => {
    await signIn(page);
    await use(page);
  },
});

export { expect };
