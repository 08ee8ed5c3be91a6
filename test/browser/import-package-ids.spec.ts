import type { Page } from '@playwright/test';
import { derivedScanId } from '../../src/main/evidence/import/import-ids';
import { oneScanPackage } from '../helpers/import-fixtures';
import { cleanupProcesses, startServe, type ServeProcess } from '../helpers/serve-process';
import { expect, test } from './fixtures';

// Its own server: the suite's demo store is shared, and these tests count what an import adds.
let server: ServeProcess;
let ownerId: string;
/** A second user, in the owner's organization as a plain member: submits the organization's scans. */
let member: { id: string; token: string };
/** The owner's export of two of the member's organization scans. */
let exported: Buffer;
let orgScanIds: string[];

const UPSTREAM_ID = 'UP-4711';

async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

test.beforeAll(async () => {
  server = await startServe();
  ownerId = (await api<{ id: string }>(server.token, 'GET', '/v1/me')).id;
  const created = await api<{ user: { id: string }; token: string }>(server.token, 'POST', '/v1/users', {
    name: 'member',
  });
  member = { id: created.user.id, token: created.token };
  const org = await api<{ id: string }>(server.token, 'POST', '/v1/organizations', { name: 'Acme' });
  await api(server.token, 'PUT', `/v1/organizations/${org.id}/members/${member.id}`, { role: 'member' });
  orgScanIds = [];
  for (const [tool, tokens] of [
    ['cursor', 1200],
    ['claude-code', 800],
  ] as const) {
    const scan = await api<{ id: string }>(member.token, 'POST', '/v1/scans', {
      tool,
      action: 'edit',
      tokens,
      organization_id: org.id,
    });
    orgScanIds.push(scan.id);
  }
  const response = await fetch(`${server.url}/v1/evidence/exports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scan_ids: orgScanIds }),
  });
  expect(response.ok).toBe(true);
  exported = Buffer.from(await response.arrayBuffer());
});

test.afterAll(async () => {
  await server?.stop();
  await cleanupProcesses();
});

async function signInAs(page: Page, token: string, path = '/'): Promise<void> {
  await page.goto(`${server.url}${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`);
  await expect(page).not.toHaveURL(/token=/);
}

const pageLabel = (page: Page) => page.getByRole('navigation', { name: 'Pages' }).locator('.pager-label');

test.describe('imports and package ids @zones', () => {
  test.describe.configure({ mode: 'serial' });

  test("importing an export of the organization's scans reports them unchanged, and each is listed once", async ({
    page,
  }) => {
    await signInAs(page, server.token, '/import');
    await expect(page.getByRole('heading', { name: 'Import evidence' })).toBeVisible();
    await page
      .getByTestId('import-input')
      .setInputFiles([{ name: 'acme-export.zip', mimeType: 'application/zip', buffer: exported }]);
    const job = page.getByRole('listitem').filter({ hasText: 'acme-export.zip' });
    await expect(job.getByText('Imported 0 scans, unchanged 2 scans')).toBeVisible();
    for (const id of orgScanIds) await expect(job.getByRole('link', { name: id })).toBeVisible();

    await page.goto(`${server.url}/scans`);
    await expect(pageLabel(page)).toHaveText('1–2 of 2');
    for (const id of orgScanIds) await expect(page.getByRole('link', { name: id, exact: true })).toHaveCount(1);
    for (const id of orgScanIds) {
      await expect(page.getByRole('link', { name: derivedScanId(ownerId, id) })).toHaveCount(0);
    }
  });

  test('a link to an upstream id lands on its import; the page shows the package id; the filter finds it', async ({
    page,
  }) => {
    await signInAs(page, server.token, '/import');
    await page
      .getByTestId('import-input')
      .setInputFiles([{ name: 'upstream.zip', mimeType: 'application/zip', buffer: oneScanPackage(UPSTREAM_ID) }]);
    const stored = derivedScanId(ownerId, UPSTREAM_ID);
    await expect(
      page.getByRole('listitem').filter({ hasText: 'upstream.zip' }).getByText('Imported 1 scan, unchanged 0 scans'),
    ).toBeVisible();

    // A deep link by the id the ticket names: the URL becomes the stored scan's.
    await page.goto(`${server.url}/scans/${UPSTREAM_ID}`);
    await expect(page).toHaveURL(`${server.url}/scans/${stored}`);
    const summary = page.locator('.scan-summary');
    await expect(summary.locator('code').first()).toHaveText(stored);
    await expect(summary.getByText('Package ID')).toBeVisible();
    await expect(summary.locator('dd code', { hasText: UPSTREAM_ID })).toBeVisible();
    await page.goto(`${server.url}/scans`);
    await page.getByLabel('Package ID').fill(UPSTREAM_ID);
    await page.getByLabel('Package ID').press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]package_id=${UPSTREAM_ID}`));
    await expect(pageLabel(page)).toHaveText('1–1 of 1');
    await expect(page.getByRole('link', { name: stored })).toBeVisible();

    // Not an id at all: said at once, nothing sent.
    await page.getByLabel('Package ID').fill('a/b');
    await page.getByLabel('Package ID').press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'An ID is letters' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]package_id=${UPSTREAM_ID}`));
  });

  test("another user's link to the same upstream id finds nothing of the owner's import", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signInAs(page, member.token);
      await page.goto(`${server.url}/scans/${UPSTREAM_ID}`);
      await expect(page.getByRole('alert')).toContainText(`Scan not found: there is no scan ${UPSTREAM_ID}`);
      await expect(page).toHaveURL(`${server.url}/scans/${UPSTREAM_ID}`);
      // The member's own session asks the server: none of the member's imports had that id.
      const found = await page.request.get(`${server.url}/v1/scans?package_id=${UPSTREAM_ID}`);
      expect(await found.json()).toEqual({ scans: [], total: 0 });
      await page.goto(`${server.url}/scans?package_id=${UPSTREAM_ID}`);
      await expect(page.getByLabel('Package ID')).toHaveValue(UPSTREAM_ID);
      await expect(page.getByRole('link', { name: derivedScanId(ownerId, UPSTREAM_ID) })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});
