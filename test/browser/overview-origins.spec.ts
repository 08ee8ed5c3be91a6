import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from './fixtures';

// "This laptop" and a remote apart or together (docs/contract/api.md#origins). The suite's server
// is the laptop; this spec gives its store a remote and a day of scans from each origin, written
// into the store as a pull does (source pulled, the remote and the id there; the rollups follow
// by their triggers), on a day the demo data leaves empty, and takes them out again after.

const DAY = '2025-06-01';
const AT = Date.UTC(2025, 5, 1, 9);
const REMOTE = { id: 'rmt_origin_spec', name: 'origin-spec-team' };
const LOCAL_TOKENS = [100, 200];
const PULLED_TOKENS = [1000, 1000, 1000];

const openStore = () => new Database(join(process.env.SCANDESK_DATA_DIR!, 'scandesk.db'));
const scanId = (n: number) => `scan_ORIGINSPEC${String(n).padStart(14, '0')}`;

async function ownerId(page: Page): Promise<string> {
  const me = await page.request.get('/v1/me', { headers: { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` } });
  expect(me.status()).toBe(200);
  return ((await me.json()) as { id: string }).id;
}

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  const owner = await ownerId(page);
  await page.close();
  const db = openStore();
  try {
    db.pragma('busy_timeout = 5000');
    db.transaction(() => {
      const { last_seq: seq } = db
        .prepare('UPDATE change_sequence SET last_seq = last_seq + 1 RETURNING last_seq')
        .get() as { last_seq: number };
      db.prepare('INSERT INTO remotes (id, name, url, user_id, push_since, created_at) VALUES (?, ?, ?, ?, 0, 0)').run(
        REMOTE.id,
        REMOTE.name,
        'https://team.example.org',
        owner,
      );
      const insert = db.prepare(`INSERT INTO scans (id, created_at, tool, action, tokens, status, source,
        organization_id, submitted_by, token_breakdown, request_count, violation_count, worst_severity,
        origin_remote_id, origin_id, change_seq)
        VALUES (?, ?, 'origin-spec', 'edit', ?, 'completed', ?, NULL, ?, '{}', 0, 0, 0, ?, ?, ?)`);
      LOCAL_TOKENS.forEach((tokens, i) => insert.run(scanId(i), AT + i, tokens, 'submitted', owner, null, null, seq));
      PULLED_TOKENS.forEach((tokens, i) =>
        insert.run(scanId(10 + i), AT + 10 + i, tokens, 'pulled', owner, REMOTE.id, `scan_THERE${i}`, seq),
      );
    })();
  } finally {
    db.close();
  }
});

test.afterAll(() => {
  const db = openStore();
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare("DELETE FROM scans WHERE tool = 'origin-spec'").run();
    db.prepare('DELETE FROM remotes WHERE id = ?').run(REMOTE.id);
  } finally {
    db.close();
  }
});

const tokensCaption = (page: Page) =>
  page.getByRole('figure', { name: 'Tokens over time by tool' }).locator('figcaption');

test('the overview shows this laptop and a remote apart or together, and a link keeps the choice', async ({ page }) => {
  await signIn(page, `/?since=${DAY}&until=${DAY}`);
  const origin = page.getByRole('group', { name: 'Origin' });
  await expect(origin.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  await expect(tokensCaption(page)).toContainText('3,300 tokens');

  await origin.getByRole('button', { name: 'This laptop' }).click();
  await expect(page).toHaveURL(/origin=local/);
  await expect(tokensCaption(page)).toContainText('300 tokens');
  await expect(tokensCaption(page)).not.toContainText('3,300');
  await expect(page.getByRole('figure', { name: 'Scans and violations over time' })).toContainText('2 scans');

  await origin.getByRole('button', { name: REMOTE.name }).click();
  await expect(page).toHaveURL(new RegExp(`origin=${REMOTE.name}`));
  await expect(tokensCaption(page)).toContainText('3,000 tokens');
  // A range change keeps the origin; a reload keeps both.
  await page.getByRole('button', { name: '90 d' }).click();
  await expect(page).toHaveURL(new RegExp(`range=90d.*origin=${REMOTE.name}|origin=${REMOTE.name}.*range=90d`));
  await page.goto(`/?since=${DAY}&until=${DAY}&origin=${REMOTE.name}`);
  await expect(origin.getByRole('button', { name: REMOTE.name })).toHaveAttribute('aria-pressed', 'true');
  await expect(tokensCaption(page)).toContainText('3,000 tokens');
  await expect(page.getByText(`${REMOTE.name} only`)).toBeVisible();

  await origin.getByRole('button', { name: 'All' }).click();
  await expect(page).not.toHaveURL(/origin=/);
  await expect(tokensCaption(page)).toContainText('3,300 tokens');
  await expectAccessible(page);
});

test('the scans list filters by origin and says which remote a pulled scan came from', async ({ page }) => {
  await signIn(page, `/scans?since=${DAY}&until=${DAY}`);
  const rows = page.locator('.scans-table tbody tr[data-index]');
  await expect(rows).toHaveCount(5);
  await expect(page.locator('.scans-table .origin-badge')).toHaveCount(3);

  await page.getByLabel('Origin', { exact: true }).selectOption(REMOTE.name);
  await expect(page).toHaveURL(new RegExp(`origin=${REMOTE.name}`));
  await expect(rows).toHaveCount(3);
  await expect(rows.first().locator('.origin-badge')).toHaveText(REMOTE.name);
  await expect(page.getByText(/1–3 of 3/).first()).toBeVisible();

  await page.getByLabel('Origin', { exact: true }).selectOption({ label: 'This laptop' });
  await expect(page).toHaveURL(/origin=local/);
  await expect(rows).toHaveCount(2);
  await expect(page.locator('.scans-table .origin-badge')).toHaveCount(0);
  await expectAccessible(page);
});
