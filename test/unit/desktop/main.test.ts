import type { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Paths from '../../../src/main/workspace/data-dir';
import type { DesktopImportOutcome } from '../../../src/shared/desktop-api';
import { submitScan } from '../../helpers/scan-fixtures';
import { createTestContext } from '../../helpers/test-app';

// src/main/index.ts run end to end with Electron replaced by fakes: the store, server, session
// cookie, server.json, window, argv import and quit are real; only Electron's objects are not.

const fake = vi.hoisted(() => ({
  userData: '',
  defaultPort: 0,
  app: null as unknown as EventEmitter & Record<string, unknown>,
  cookies: [] as Array<Record<string, unknown>>,
  loaded: [] as string[],
  sent: [] as unknown[][],
  windowOptions: [] as Array<Record<string, unknown>>,
  permissionHandlers: 0,
  exitCodes: [] as number[],
  windowOpenHandlers: 0,
}));

vi.mock('../../../src/main/workspace/data-dir', async (importOriginal) => ({
  ...(await importOriginal<typeof Paths>()),
  get DEFAULT_PORT() {
    return fake.defaultPort;
  },
}));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const app = Object.assign(new Emitter(), {
    getPath: () => fake.userData,
    getName: () => 'Scandesk',
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    quit: () => undefined,
    exit: (code: number) => fake.exitCodes.push(code),
  });
  fake.app = app as never;
  class WebContents extends Emitter {
    setWindowOpenHandler(): void {
      fake.windowOpenHandlers += 1;
    }
    send(...args: unknown[]): void {
      fake.sent.push(args);
    }
  }
  class BrowserWindow extends Emitter {
    webContents = new WebContents();
    constructor(options: Record<string, unknown>) {
      super();
      fake.windowOptions.push(options);
      app.emit('web-contents-created', {}, this.webContents);
    }
    async loadURL(url: string): Promise<void> {
      fake.loaded.push(url);
    }
    isDestroyed = (): boolean => false;
    isMinimized = (): boolean => false;
    isMaximized = (): boolean => false;
    getNormalBounds = () => ({ x: 0, y: 0, width: 1280, height: 820 });
    maximize(): void {}
    show(): void {}
    focus(): void {}
    restore(): void {}
  }
  const display = { workArea: { x: 0, y: 0, width: 1920, height: 1040 } };
  return {
    app,
    BrowserWindow,
    net: { isOnline: () => true },
    powerMonitor: new Emitter(),
    screen: { getPrimaryDisplay: () => display, getAllDisplays: () => [display] },
    session: {
      defaultSession: {
        cookies: { set: async (details: Record<string, unknown>) => fake.cookies.push(details) },
        setPermissionRequestHandler: () => (fake.permissionHandlers += 1),
        setPermissionCheckHandler: () => (fake.permissionHandlers += 1),
      },
    },
    ipcMain: { handle: () => undefined, on: () => undefined },
    dialog: { showMessageBox: async () => ({ response: 0 }), showErrorBox: () => undefined },
    shell: { openExternal: async () => undefined, openPath: async () => '' },
    Menu: { buildFromTemplate: (template: unknown) => template, setApplicationMenu: () => undefined },
  };
});

describe('the desktop main process (Electron faked)', () => {
  let blocker: Server;
  let work: string;
  let evidence: string;
  let argv: string[];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'scandesk-main-'));
    fake.userData = join(work, 'userData');
    // A package to open "from the command line", made by another workspace's export.
    const source = await createTestContext();
    const scan = await submitScan(source, { tool: 'cursor', action: 'chat', tokens: 42 });
    const download = await source.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence/download` });
    await source.close();
    evidence = join(work, 'evidence.zip');
    writeFileSync(evidence, download.rawPayload);
    // The default port is taken: the app must fall back to a free one.
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    fake.defaultPort = (blocker.address() as { port: number }).port;
    argv = process.argv;
    process.argv = ['/usr/bin/electron', '.', '--inspect=9229', evidence];
    await import('../../../src/main/desktop/main');
  });

  afterAll(async () => {
    process.argv = argv;
    await new Promise((resolve) => blocker.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  const serverUrl = (): string => fake.loaded[0]!;

  it('starts the server on a free port when the default is taken, and loads the window on it', async () => {
    await vi.waitFor(() => expect(fake.sent.length).toBeGreaterThan(0), { timeout: 20_000 });
    expect(fake.loaded).toHaveLength(1);
    expect(serverUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(serverUrl()).not.toBe(`http://127.0.0.1:${fake.defaultPort}`);
    expect(fake.windowOptions[0]!.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(fake.windowOpenHandlers).toBe(1);
    expect(fake.permissionHandlers).toBe(2);
    const health = await fetch(`${serverUrl()}/healthz`);
    expect(health.status).toBe(200);
  });

  it('writes <userData>/server.json for the CLI', () => {
    const info = JSON.parse(readFileSync(join(fake.userData, 'server.json'), 'utf8')) as unknown;
    expect(info).toEqual({ url: serverUrl(), pid: process.pid });
  });

  it("sets the owner's session cookie (HttpOnly, SameSite strict, the server's URL), which works", async () => {
    expect(fake.cookies).toHaveLength(1);
    const cookie = fake.cookies[0]!;
    expect(cookie).toMatchObject({
      url: serverUrl(),
      name: `scandesk_session_${new URL(serverUrl()).port}`,
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
    });
    const me = await fetch(`${serverUrl()}/v1/me`, { headers: { cookie: `${cookie.name}=${String(cookie.value)}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ name: 'local' });
  });

  it('imported the ZIP from argv through the import service and told the window', () => {
    expect(fake.sent).toHaveLength(1);
    const [channel, outcomes] = fake.sent[0] as [string, DesktopImportOutcome[]];
    expect(channel).toBe('scandesk:imported');
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ name: 'evidence.zip', status: 'imported' });
    expect(outcomes[0]!.status === 'imported' && outcomes[0]!.result.imported).toHaveLength(1);
  });

  it('quit ends the session, removes server.json, closes the server and the database', async () => {
    const url = serverUrl();
    let prevented = false;
    fake.app.emit('will-quit', {
      preventDefault: () => {
        prevented = true;
      },
    });
    expect(prevented).toBe(true);
    await vi.waitFor(() => expect(fake.exitCodes).toEqual([0]), { timeout: 10_000 });
    expect(existsSync(join(fake.userData, 'server.json'))).toBe(false);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    // The database was closed cleanly (no WAL left behind) and the session is gone from it.
    expect(existsSync(join(fake.userData, 'scandesk.db-wal'))).toBe(false);
    const { openWorkspace } = await import('../../../src/main/workspace/workspace');
    const reopened = await openWorkspace(fake.userData);
    try {
      // Any port: the row itself must be gone, not merely refused on a port it is not bound to.
      expect(await reopened.db.selectFrom('sessions').select('id_hash').execute()).toEqual([]);
      const scans = await reopened.db.selectFrom('scans').select('id').execute();
      expect(scans).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  });
});
