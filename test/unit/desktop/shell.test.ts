import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopApi, DesktopImportOutcome } from '../../../src/shared/desktop-api';
import { DESKTOP_CHANNELS } from '../../../src/shared/desktop-api';

// Electron cannot run here, so its modules are replaced at the module boundary: these fakes record
// what the shell asks of Electron, and the tests drive the handlers it registered.

const fake = vi.hoisted(() => {
  type Handler = (...args: never[]) => unknown;
  const state = {
    windows: [] as Array<{ options: Record<string, unknown>; maximized: boolean }>,
    ipcHandles: new Map<string, Handler>(),
    ipcOn: new Map<string, Handler>(),
    openDialogResult: { canceled: false, filePaths: [] as string[] },
    openDialogCalls: [] as unknown[],
    messageBoxResponse: 0,
    messageBoxCalls: [] as unknown[][],
    exposed: new Map<string, unknown>(),
    rendererListeners: new Map<string, Handler>(),
    invoked: [] as unknown[][],
    menuTemplate: null as unknown,
  };
  return state;
});

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class BrowserWindow extends Emitter {
    webContents = new Emitter();
    constructor(options: Record<string, unknown>) {
      super();
      fake.windows.push({ options, maximized: false });
    }
    maximize(): void {
      fake.windows.at(-1)!.maximized = true;
    }
    getNormalBounds() {
      return { x: 10, y: 20, width: 900, height: 650 };
    }
    isMaximized(): boolean {
      return false;
    }
    isMinimized(): boolean {
      return false;
    }
    show(): void {}
    focus(): void {}
    restore(): void {}
  }
  const display = { workArea: { x: 0, y: 0, width: 1920, height: 1040 } };
  return {
    BrowserWindow,
    screen: { getPrimaryDisplay: () => display, getAllDisplays: () => [display] },
    ipcMain: {
      handle: (channel: string, handler: never) => fake.ipcHandles.set(channel, handler),
      on: (channel: string, handler: never) => fake.ipcOn.set(channel, handler),
    },
    dialog: {
      showOpenDialog: async (...args: unknown[]) => {
        fake.openDialogCalls.push(args);
        return fake.openDialogResult;
      },
      showMessageBox: async (...args: unknown[]) => {
        fake.messageBoxCalls.push(args);
        return { response: fake.messageBoxResponse };
      },
    },
    Menu: {
      buildFromTemplate: (template: unknown) => {
        fake.menuTemplate = template;
        return template;
      },
      setApplicationMenu: () => undefined,
    },
    contextBridge: { exposeInMainWorld: (key: string, value: unknown) => fake.exposed.set(key, value) },
    ipcRenderer: {
      on: (channel: string, listener: never) => fake.rendererListeners.set(channel, listener),
      sendSync: (channel: string) => (channel === 'scandesk:app-version' ? '9.9.9' : undefined),
      invoke: async (...args: unknown[]) => {
        fake.invoked.push(args);
        return [];
      },
    },
  };
});

const { createMainWindow, secureWebPreferences } = await import('../../../src/main/desktop/window');
const { hardenSession, hardenWebContents } = await import('../../../src/main/desktop/security');
const { registerIpc } = await import('../../../src/main/desktop/ipc');
const { menuTemplate, aboutText } = await import('../../../src/main/desktop/menu');
const { confirmEvidenceImport, EvidenceOpener, listenForOpenedFiles, EVIDENCE_FILTERS } =
  await import('../../../src/main/desktop/open-files');

const APP = 'http://127.0.0.1:4790';

interface FakeEvent {
  url: string;
  prevented: boolean;
  preventDefault(): void;
}
const event = (url = ''): FakeEvent => ({
  url,
  prevented: false,
  preventDefault() {
    this.prevented = true;
  },
});

describe('the window', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-shell-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has exactly the secure webPreferences plus the preload', () => {
    const window = createMainWindow({ preload: '/app/out/preload/index.cjs', stateFile: join(dir, 'ws.json') });
    expect(window).toBeDefined();
    expect(fake.windows.at(-1)!.options.webPreferences).toStrictEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(secureWebPreferences('p')).toStrictEqual({
      preload: 'p',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
  });

  it('restores the saved state and saves it on close', async () => {
    const file = join(dir, 'window-state.json');
    writeFileSync(file, JSON.stringify({ x: 100, y: 120, width: 1000, height: 700, maximized: true }));
    const window = createMainWindow({ preload: 'p', stateFile: file });
    expect(fake.windows.at(-1)!.options).toMatchObject({ x: 100, y: 120, width: 1000, height: 700 });
    expect(fake.windows.at(-1)!.maximized).toBe(true);
    window.emit('close');
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ x: 10, y: 20, width: 900, height: 650, maximized: false });
  });
});

describe('navigation, new windows, <webview> and permissions', () => {
  const contents = new EventEmitter() as EventEmitter & {
    windowOpenHandler?: (details: { url: string }) => { action: string };
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void;
  };
  contents.setWindowOpenHandler = (handler) => {
    contents.windowOpenHandler = handler;
  };
  const opened: string[] = [];
  hardenWebContents(contents as never, {
    appUrl: APP,
    openExternal: async (url) => {
      opened.push(url);
    },
  });
  beforeEach(() => {
    opened.length = 0;
  });

  const refused = [
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hi',
    'http://127.0.0.1.evil.example/',
    'http://127.0.0.1:4790.evil.example/',
    'http://127.0.0.1:4791/',
    'http://localhost:4790/',
    'https://example.com/',
  ];

  it.each(['will-navigate', 'will-frame-navigate', 'will-redirect'])('%s allows the app origin only', (name) => {
    for (const url of [APP, `${APP}/`, `${APP}/scans/scan_1?x=1`]) {
      const allowed = event(url);
      contents.emit(name, allowed);
      expect(allowed.prevented, url).toBe(false);
    }
    for (const url of refused) {
      const blocked = event(url);
      contents.emit(name, blocked);
      expect(blocked.prevented, url).toBe(true);
    }
  });

  it('denies every window.open, sending only safe https links to the system browser', () => {
    const answers = [...refused, 'https://docs.example.org/page', `${APP}/import`].map(
      (url) => contents.windowOpenHandler!({ url }).action,
    );
    expect(new Set(answers)).toEqual(new Set(['deny']));
    expect(opened).toEqual(['https://example.com/', 'https://docs.example.org/page']);
  });

  it('prevents every <webview>', () => {
    const attach = event();
    contents.emit('will-attach-webview', attach, {}, {});
    expect(attach.prevented).toBe(true);
  });

  it('denies permission requests and checks', () => {
    let request: ((c: unknown, p: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: ((c: unknown, p: string) => boolean) | undefined;
    hardenSession({
      setPermissionRequestHandler: (handler: typeof request) => {
        request = handler;
      },
      setPermissionCheckHandler: (handler: typeof check) => {
        check = handler;
      },
    } as never);
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal']) {
      const answers: boolean[] = [];
      request!(null, permission, (granted) => answers.push(granted));
      expect(answers).toEqual([false]);
      expect(check!(null, permission)).toBe(false);
    }
  });
});

describe('IPC: fixed channels, app frames only', () => {
  const calls: string[] = [];
  const outcome: DesktopImportOutcome = {
    name: 'a.zip',
    size: 1,
    status: 'refused',
    error: { message: 'no', details: [] },
  };
  registerIpc(APP, {
    appVersion: '1.2.3',
    importEvidence: async () => {
      calls.push('import');
      return [outcome];
    },
    revealDataFolder: async () => {
      calls.push('reveal');
    },
  });
  const from = (url: string): { senderFrame: { url: string }; returnValue?: unknown } => ({ senderFrame: { url } });

  it('registers only the fixed channels', () => {
    expect([...fake.ipcHandles.keys()].sort()).toEqual(
      [DESKTOP_CHANNELS.importEvidence, DESKTOP_CHANNELS.revealDataFolder].sort(),
    );
    expect([...fake.ipcOn.keys()]).toEqual([DESKTOP_CHANNELS.appVersion]);
  });

  it('answers the app origin', async () => {
    const importEvidence = fake.ipcHandles.get(DESKTOP_CHANNELS.importEvidence) as (e: unknown) => Promise<unknown>;
    const reveal = fake.ipcHandles.get(DESKTOP_CHANNELS.revealDataFolder) as (e: unknown) => Promise<unknown>;
    await expect(importEvidence(from(`${APP}/import`))).resolves.toEqual([outcome]);
    await reveal(from(APP));
    expect(calls).toEqual(['import', 'reveal']);
    const version = from(APP);
    (fake.ipcOn.get(DESKTOP_CHANNELS.appVersion) as (e: unknown) => void)(version);
    expect(version.returnValue).toBe('1.2.3');
  });

  it.each(['http://127.0.0.1:4791/', 'http://evil.example/', 'file:///x', 'about:blank', ''])(
    'refuses a sender frame at %j',
    async (url) => {
      calls.length = 0;
      const importEvidence = fake.ipcHandles.get(DESKTOP_CHANNELS.importEvidence) as (e: unknown) => Promise<unknown>;
      await expect(importEvidence(from(url))).rejects.toThrow(/not the app/);
      await expect(importEvidence({ senderFrame: null })).rejects.toThrow(/not the app/);
      const version = from(url);
      (fake.ipcOn.get(DESKTOP_CHANNELS.appVersion) as (e: unknown) => void)(version);
      expect(version.returnValue).toBe('');
      expect(calls).toEqual([]);
    },
  );
});

describe('menus and About', () => {
  type Item = { label?: string; role?: string; accelerator?: string; submenu?: Item[]; click?: () => void };
  const actions = { importEvidence: vi.fn(), revealDataFolder: vi.fn(), about: vi.fn() };
  const labels = (items: Item[]): string[] => items.map((item) => item.label ?? item.role ?? '-');
  const find = (items: Item[], label: string): Item => items.find((item) => (item.label ?? item.role) === label)!;

  it('has File (Import evidence… Ctrl/Cmd+O, Reveal data folder, Quit), Edit, View and Help with About', () => {
    const menu = menuTemplate(actions, { isDev: false, platform: 'linux', appName: 'Scandesk' }) as Item[];
    expect(labels(menu)).toEqual(['File', 'editMenu', 'View', 'windowMenu', 'help']);
    const file = find(menu, 'File').submenu!;
    expect(labels(file)).toEqual(['Import evidence…', 'Reveal data folder', '-', 'quit']);
    expect(find(file, 'Import evidence…').accelerator).toBe('CmdOrCtrl+O');
    find(file, 'Import evidence…').click!();
    find(file, 'Reveal data folder').click!();
    find(find(menu, 'help').submenu!, 'About Scandesk').click!();
    expect(actions.importEvidence).toHaveBeenCalledOnce();
    expect(actions.revealDataFolder).toHaveBeenCalledOnce();
    expect(actions.about).toHaveBeenCalledOnce();
  });

  it('offers reload and devtools only in development', () => {
    const roles = (isDev: boolean): string[] =>
      labels(find(menuTemplate(actions, { isDev, platform: 'linux', appName: 'Scandesk' }) as Item[], 'View').submenu!);
    expect(roles(false)).not.toEqual(expect.arrayContaining(['reload']));
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('forceReload');
    expect(roles(true)).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']));
  });

  it('puts About and Quit in the app menu on macOS', () => {
    const menu = menuTemplate(actions, { isDev: false, platform: 'darwin', appName: 'Scandesk' }) as Item[];
    expect(labels(menu)[0]).toBe('Scandesk');
    expect(labels(menu[0]!.submenu!)).toEqual(expect.arrayContaining(['About Scandesk', 'quit']));
  });

  it('About names the app, version and data folder', () => {
    const text = aboutText({
      appName: 'Scandesk',
      version: '0.1.0',
      dataDir: '/home/me/.config/Scandesk',
      serverUrl: APP,
    });
    expect(text.message).toBe('Scandesk 0.1.0');
    expect(text.detail).toContain('/home/me/.config/Scandesk');
  });
});

describe('opening evidence files: dialog, argv, second instance, open-file', () => {
  let dir: string;
  let zip: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-open-'));
    zip = join(dir, 'evidence.zip');
    writeFileSync(zip, 'x');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const outcomeFor = (path: string): DesktopImportOutcome => ({
    name: path,
    size: 1,
    status: 'refused',
    error: { message: 'test', details: [] },
  });

  /** An opener wired to fakes; the user answers every question with `answer`. */
  function started(opener: InstanceType<typeof EvidenceOpener>, answer = true) {
    const imported: string[][] = [];
    const reported: DesktopImportOutcome[][] = [];
    const asked: string[][] = [];
    const done = opener.start({
      importFiles: async (paths) => {
        imported.push([...paths]);
        return paths.map(outcomeFor);
      },
      confirm: async (paths) => {
        asked.push([...paths]);
        return answer;
      },
      report: (outcomes) => reported.push(outcomes),
      window: () => null,
    });
    return { imported, reported, asked, done };
  }

  it('keeps files that arrive before ready (macOS open-file) until the store is open', async () => {
    const app = new EventEmitter();
    const opener = new EvidenceOpener();
    let focused = 0;
    listenForOpenedFiles(app as never, opener, () => focused++);
    const openFile = event();
    app.emit('open-file', openFile, zip);
    app.emit('open-file', event(), join(dir, 'notes.txt'));
    expect(openFile.prevented).toBe(true);
    const { imported, reported, asked, done } = started(opener);
    await done;
    expect(asked).toEqual([[zip]]);
    expect(imported).toEqual([[zip]]);
    expect(reported).toEqual([[outcomeFor(zip)]]);
    expect(focused).toBe(2);
  });

  it('imports the ZIPs of a second launch, relative to its working directory', async () => {
    const app = new EventEmitter();
    const opener = new EvidenceOpener();
    listenForOpenedFiles(app as never, opener, () => undefined);
    const { imported, asked } = started(opener);
    app.emit('second-instance', event(), ['/opt/Scandesk/scandesk', '--inspect', 'evidence.zip', 'missing.zip'], dir);
    await opener.open([]);
    expect(asked).toEqual([[zip]]);
    expect(imported).toEqual([[zip]]);
  });

  it('imports the first launch argv through the same path', async () => {
    const opener = new EvidenceOpener();
    const { imported, asked } = started(opener);
    await opener.openArgv(['scandesk', '.', zip], '/');
    expect(asked).toEqual([[zip]]);
    expect(imported).toEqual([[zip]]);
  });

  it('imports nothing from the OS, and reports nothing, when the user cancels', async () => {
    const app = new EventEmitter();
    const opener = new EvidenceOpener();
    listenForOpenedFiles(app as never, opener, () => undefined);
    const { imported, reported, asked } = started(opener, false);
    app.emit('open-file', event(), zip);
    app.emit('second-instance', event(), ['/opt/Scandesk/scandesk', zip], dir);
    await opener.openArgv(['scandesk', zip], '/');
    expect(asked).toEqual([[zip], [zip], [zip]]);
    expect(imported).toEqual([]);
    expect(reported).toEqual([]);
  });

  it('asks with the file names, Cancel the default, and imports only on Import', async () => {
    fake.messageBoxCalls.length = 0;
    fake.messageBoxResponse = 0;
    await expect(confirmEvidenceImport(null, [zip, join(dir, 'b.zip')])).resolves.toBe(true);
    const [options] = fake.messageBoxCalls.at(-1) as [Record<string, unknown>];
    expect(options).toMatchObject({ buttons: ['Import', 'Cancel'], defaultId: 1, cancelId: 1 });
    expect(options.message).toBe('Import 2 evidence packages into this workspace?');
    expect(options.detail).toContain('evidence.zip\nb.zip');
    fake.messageBoxResponse = 1;
    await expect(confirmEvidenceImport(null, [zip])).resolves.toBe(false);
    expect((fake.messageBoxCalls.at(-1) as [{ message: string }])[0].message).toBe(
      'Import an evidence package into this workspace?',
    );
  });

  it('the dialog is filtered to .zip, imports the choice, and never opens twice at once', async () => {
    const opener = new EvidenceOpener();
    const { imported, asked } = started(opener);
    fake.openDialogResult = { canceled: false, filePaths: [zip] };
    const [first, second] = await Promise.all([opener.chooseAndImport(), opener.chooseAndImport()]);
    expect(first).toEqual([outcomeFor(zip)]);
    expect(second).toBeNull();
    expect(imported).toEqual([[zip]]);
    // Picked in the app's own dialog: no second question.
    expect(asked).toEqual([]);
    const options = fake.openDialogCalls.at(-1) as [{ filters: unknown; properties: string[] }];
    expect(options[0].filters).toEqual(EVIDENCE_FILTERS);
    expect(EVIDENCE_FILTERS).toEqual([{ name: 'Evidence packages', extensions: ['zip'] }]);
    expect(options[0].properties).toEqual(['openFile', 'multiSelections']);
    fake.openDialogResult = { canceled: true, filePaths: [] };
    await expect(opener.chooseAndImport()).resolves.toEqual([]);
  });
});

describe('the preload', () => {
  it('exposes one typed object over the fixed channels', async () => {
    await import('../../../src/preload/index');
    const api = fake.exposed.get('desktop') as DesktopApi;
    expect([...fake.exposed.keys()]).toEqual(['desktop']);
    expect(Object.keys(api).sort()).toEqual(
      ['appVersion', 'importEvidence', 'isDesktop', 'onImported', 'revealDataFolder'].sort(),
    );
    expect(api.appVersion).toBe('9.9.9');
    await api.importEvidence();
    await api.revealDataFolder();
    expect(fake.invoked).toEqual([[DESKTOP_CHANNELS.importEvidence], [DESKTOP_CHANNELS.revealDataFolder]]);
  });

  it('keeps imports that arrive before the renderer listens', async () => {
    const api = fake.exposed.get('desktop') as DesktopApi;
    const push = fake.rendererListeners.get(DESKTOP_CHANNELS.imported) as (e: unknown, o: unknown) => void;
    const early = [{ name: 'early.zip' }];
    push({}, early);
    const seen: unknown[] = [];
    const stop = api.onImported((outcomes) => seen.push(outcomes));
    const late = [{ name: 'late.zip' }];
    push({}, late);
    stop();
    push({}, [{ name: 'after.zip' }]);
    expect(seen).toEqual([early, late]);
  });
});
