import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { MenuItem } from 'electron';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanupProcesses, startServe } from '../helpers/serve-process';
import { electronExecutable, NO_ELECTRON_REASON, ROOT } from './electron-binary';

type HookedGlobal = typeof globalThis & { __scandeskExternal?: string[]; __scandeskNavigations?: string[] };

const executable = electronExecutable();
const MAIN = join(ROOT, 'out', 'main', 'index.js');

test.describe.configure({ mode: 'serial' });
test.skip(executable === undefined, NO_ELECTRON_REASON);

let app: ElectronApplication;
let appWindow: Page;
let tempDir: string;
let evidenceZip: string;
let scanId: string;

test.beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error('out/main/index.js is missing: run `npm run build` first');
  tempDir = mkdtempSync(join(tmpdir(), 'scandesk-electron-'));

  // An evidence package as another Scandesk exports it: one scan submitted to a headless server.
  const source = await startServe();
  const headers = { Authorization: `Bearer ${source.token}`, 'Content-Type': 'application/json' };
  const submitted = await fetch(`${source.url}/v1/scans`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ tool: 'chat-assistant', action: 'prompt', tokens: 1234 }),
  });
  expect(submitted.status).toBe(201);
  scanId = ((await submitted.json()) as { id: string }).id;
  const download = await fetch(`${source.url}/v1/scans/${scanId}/evidence/download`, { headers });
  expect(download.headers.get('content-type')).toContain('application/zip');
  evidenceZip = join(tempDir, 'evidence.zip');
  writeFileSync(evidenceZip, Buffer.from(await download.arrayBuffer()));
  await source.stop();

  const dataDir = join(tempDir, 'data');
  app = await electron.launch({
    executablePath: executable!,
    // Root in CI containers cannot use Chromium's sandbox.
    args: [MAIN, `--user-data-dir=${dataDir}`, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    // XDG_CONFIG_HOME as well: on Linux Electron's userData lives under it.
    env: { ...process.env, SCANDESK_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(tempDir, 'config') },
    cwd: ROOT,
  });
  // Links the window refuses may be handed to the system browser: record them instead of opening one.
  await app.evaluate(({ shell }) => {
    const hooked = globalThis as HookedGlobal;
    hooked.__scandeskExternal = [];
    shell.openExternal = async (url: string) => {
      hooked.__scandeskExternal!.push(url);
    };
  });
  appWindow = await app.firstWindow();
  await appWindow.waitForLoadState('domcontentloaded');
});

test.afterAll(async () => {
  await app?.close();
  await cleanupProcesses();
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
});

test('File ▸ Import evidence… imports a package and the window shows its scan', async () => {
  // The real menu item and everything behind it; only the native dialog, which a test cannot
  // drive, answers with the package.
  await app.evaluate(({ dialog, Menu }, file) => {
    const answer = async () => ({ canceled: false, filePaths: [file] });
    dialog.showOpenDialog = answer as typeof dialog.showOpenDialog;
    const find = (items: MenuItem[]): MenuItem | undefined => {
      for (const item of items) {
        if (item.label === 'Import evidence…') return item;
        const inSubmenu = item.submenu ? find(item.submenu.items) : undefined;
        if (inSubmenu) return inSubmenu;
      }
      return undefined;
    };
    const item = find(Menu.getApplicationMenu()?.items ?? []);
    if (!item) throw new Error('the application menu has no "Import evidence…" item');
    item.click();
  }, evidenceZip);
  await expect(appWindow.getByText(scanId).first()).toBeVisible();
});

test('window.open of an external URL opens no window', async () => {
  const opened = await appWindow.evaluate(() => window.open('https://example.com/') !== null);
  expect(opened).toBe(false);
  expect(app.windows()).toHaveLength(1);
});

test('navigating to a local file is blocked', async () => {
  const before = appWindow.url();
  await app.evaluate(({ BrowserWindow }) => {
    const hooked = globalThis as HookedGlobal;
    hooked.__scandeskNavigations = [];
    BrowserWindow.getAllWindows()[0]!.webContents.on('did-navigate', (_event, url) => {
      hooked.__scandeskNavigations!.push(url);
    });
  });
  await appWindow.evaluate(() => {
    window.location.href = 'file:///etc/passwd';
  });
  // A blocked navigation leaves no trace to wait for; give an allowed one time to commit.
  await appWindow.waitForTimeout(1000);
  const navigations = await app.evaluate(() => (globalThis as HookedGlobal).__scandeskNavigations ?? []);
  expect(navigations.filter((url) => url.startsWith('file:'))).toEqual([]);
  expect(appWindow.url()).toBe(before);
  await expect(appWindow.locator('body')).not.toContainText('root:x:0:0');
});
