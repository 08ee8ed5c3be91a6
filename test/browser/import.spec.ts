import type { Page } from '@playwright/test';
import { derivedScanId } from '../../src/main/evidence/import/import-ids';
import { cleanupProcesses, startServe, type ServeProcess } from '../helpers/serve-process';
import { buildZip } from '../helpers/zip-builder';
import { expect, expectAccessible, saveScreenshot, test } from './fixtures';

// A second, empty server: what is imported there cannot collide with the demo data of the suite.
let second: ServeProcess;
let evidenceZip: Buffer;
let scanId: string;
/** Where the second server stores it: not its owner's scan, so under an id derived for that owner. */
let storedId: string;

test.beforeAll(async ({ playwright }) => {
  const source = await playwright.request.newContext({
    baseURL: process.env.SCANDESK_URL,
    extraHTTPHeaders: { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` },
  });
  const list = await source.get('/v1/scans?limit=1');
  expect(list.ok()).toBe(true);
  scanId = ((await list.json()) as { scans: { id: string }[] }).scans[0]!.id;
  const download = await source.get(`/v1/scans/${scanId}/evidence/download`);
  expect(download.headers()['content-type']).toContain('application/zip');
  evidenceZip = await download.body();
  await source.dispose();
  second = await startServe();
  const me = await fetch(`${second.url}/v1/me`, { headers: { authorization: `Bearer ${second.token}` } });
  storedId = derivedScanId(((await me.json()) as { id: string }).id, scanId);
});

test.afterAll(async () => {
  await second?.stop();
  await cleanupProcesses();
});

async function openImport(page: Page): Promise<void> {
  await page.goto(`${second.url}/?token=${encodeURIComponent(second.token)}`);
  await expect(page).not.toHaveURL(/token=/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { name: 'Import evidence' })).toBeVisible();
}

/** A drop as the browser makes it: a DataTransfer holding the file, dispatched outside the page's own drop area. */
async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  await page.evaluate(
    ({ name, base64 }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type: 'application/zip' }));
      const fire = (type: string): boolean =>
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      fire('dragenter');
      fire('dragover');
      (window as unknown as { __dropTransfer: DataTransfer }).__dropTransfer = transfer;
    },
    { name, base64: bytes.toString('base64') },
  );
  await expect(page.getByText('Drop evidence ZIPs to import')).toBeVisible();
  await page.evaluate(() => {
    const transfer = (window as unknown as { __dropTransfer: DataTransfer }).__dropTransfer;
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  await expect(page.getByText('Drop evidence ZIPs to import')).toBeHidden();
}

test('an evidence ZIP dropped on the window is imported, with a link to its scan', async ({ page }) => {
  await openImport(page);
  await expect(page.getByText('No imports yet')).toBeVisible();

  await dropFile(page, 'evidence.zip', evidenceZip);
  const job = page.getByRole('listitem').filter({ hasText: 'evidence.zip' });
  await expect(job.getByText('Imported 1 scan, unchanged 0 scans')).toBeVisible();
  await expect(job.getByRole('link', { name: storedId })).toHaveAttribute('href', `/scans/${storedId}`);
  await expect(job.getByText(`(package id ${scanId})`)).toBeVisible();

  // The same package again: stored identically, so it is unchanged, not refused.
  await dropFile(page, 'again.zip', evidenceZip);
  const again = page.getByRole('listitem').filter({ hasText: 'again.zip' });
  await expect(again.getByText('Imported 0 scans, unchanged 1 scan')).toBeVisible();
  await expect(again.getByRole('link', { name: storedId })).toBeVisible();
});

test('hostile and wrong files are refused with the reason and the entry named', async ({ page }) => {
  await openImport(page);
  const traversal = buildZip([{ name: '../x', data: Buffer.from('escape') }]);
  await page.getByTestId('import-input').setInputFiles([
    { name: 'bad.zip', mimeType: 'application/zip', buffer: Buffer.from('this is not a zip archive\n') },
    { name: 'traversal.zip', mimeType: 'application/zip', buffer: traversal },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') },
  ]);

  const bad = page.getByRole('listitem').filter({ hasText: 'bad.zip' });
  // Plain words, not the ZIP reader's ("end of central directory record signature not found").
  await expect(bad.getByRole('alert')).toHaveText(
    'Refused: not a ZIP archive, or only part of one (a download or copy cut short)',
  );
  const evil = page.getByRole('listitem').filter({ hasText: 'traversal.zip' });
  await expect(evil.getByRole('alert')).toContainText('Refused:');
  await expect(evil.getByRole('alert').locator('code', { hasText: '../x' }).first()).toBeVisible();
  const notes = page.getByRole('listitem').filter({ hasText: 'notes.txt' });
  await expect(notes.getByRole('alert')).toContainText('Not an evidence ZIP');

  await expectAccessible(page);
  await saveScreenshot(page, 'import');

  await page.getByRole('button', { name: 'Clear finished' }).click();
  await expect(page.getByText('No imports yet')).toBeVisible();
});

test('the page has its own "Choose files…" button, and the shell action opens the picker anywhere', async ({
  page,
}) => {
  await openImport(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files…' }).click();
  const picker = await chooser;
  expect(picker.isMultiple()).toBe(true);
  await picker.setFiles([{ name: 'picked.zip', mimeType: 'application/zip', buffer: evidenceZip }]);
  await expect(page.getByRole('listitem').filter({ hasText: 'picked.zip' })).toContainText(
    /unchanged 1 scan|Imported 1 scan/,
  );

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  const fromShell = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import evidence…' }).click();
  await (await fromShell).setFiles([{ name: 'shell.zip', mimeType: 'application/zip', buffer: evidenceZip }]);
  await expect(page).toHaveURL(/\/import$/);
  await expect(page.getByRole('listitem').filter({ hasText: 'shell.zip' })).toContainText('unchanged 1 scan');
  // The jobs outlive the page: the earlier import is still listed.
  await expect(page.getByRole('listitem').filter({ hasText: 'picked.zip' })).toBeVisible();
});
