import { app, dialog, net, powerMonitor, session, shell, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP_CHANNELS, type DesktopImportOutcome } from '../../shared/desktop-api';
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  describeOutcomes,
  type DesktopSession,
  importEvidenceFiles,
  openWorkspace,
  removeServerInfo,
  type RunningServer,
  startDesktopSession,
  startServer,
  VERSION,
  type Workspace,
  writeServerInfo,
} from '../core';
import { registerIpc } from './ipc';
import { installMenu, showAbout } from './menu';
import { resolveNativeBinding } from './native-binding';
import { watchNetwork } from './network-watch';
import { confirmEvidenceImport, EvidenceOpener, listenForOpenedFiles } from './open-files';
import { hardenSession, hardenWebContents } from './security';
import { createMainWindow, focusWindow } from './window';
import { windowStateFile } from './window-state';

// The thin desktop shell: open the store, start the embedded server, show the served UI signed in
// as the workspace owner. Everything it starts comes through ../core.ts and is plain Node code that
// the CLI and the tests run too; the Electron wiring is in this folder.

// Electron's build of better-sqlite3 (native-binding.ts); undefined under plain Node.
const nativeBinding = resolveNativeBinding();

// out/main once bundled (electron.vite.config.ts), wherever this source file sits.
const here = fileURLToPath(new URL('.', import.meta.url));

interface Running {
  dataDir: string;
  server: RunningServer;
  session: DesktopSession;
  stopWatchingNetwork: () => void;
}

const opener = new EvidenceOpener();
let mainWindow: BrowserWindow | null = null;
let running: Running | undefined;

async function listenOnDefaultOrFreePort(workspace: Workspace): Promise<RunningServer> {
  const rendererDir = join(here, '../renderer');
  try {
    return await startServer({ workspace, port: DEFAULT_PORT, host: DEFAULT_HOST, rendererDir, backgroundSync: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    // Another app (or `scandesk serve`) has 4790: a free port, published in server.json for the CLI.
    return startServer({ workspace, port: 0, host: DEFAULT_HOST, rendererDir, backgroundSync: true });
  }
}

/** In the window when there is one (the renderer lists them on /import), else a message box. */
function report(outcomes: DesktopImportOutcome[]): void {
  const window = mainWindow;
  if (window && !window.isDestroyed()) {
    focusWindow(window);
    window.webContents.send(DESKTOP_CHANNELS.imported, outcomes);
    return;
  }
  void dialog.showMessageBox({
    type: 'info',
    title: 'Import evidence',
    message: 'Import finished',
    detail: describeOutcomes(outcomes),
  });
}

async function revealDataFolder(dataDir: string): Promise<void> {
  const failure = await shell.openPath(dataDir);
  if (failure) throw new Error(failure);
}

async function start(): Promise<void> {
  const dataDir = app.getPath('userData');
  const workspace = await openWorkspace(dataDir, nativeBinding === undefined ? {} : { nativeBinding });
  let server: RunningServer;
  try {
    server = await listenOnDefaultOrFreePort(workspace);
  } catch (error) {
    await workspace.close();
    throw error;
  }
  const desktopSession = await startDesktopSession(workspace.db, server.url);
  // Background sync tries the remotes it could not reach as soon as the network is back.
  const stopWatchingNetwork = watchNetwork(
    {
      isOnline: () => net.isOnline(),
      onResume: (listener) => {
        powerMonitor.on('resume', listener);
        return () => powerMonitor.off('resume', listener);
      },
    },
    () => server.nudgeSync(),
  );
  running = { dataDir, server, session: desktopSession, stopWatchingNetwork };
  writeServerInfo(dataDir, { url: server.url, pid: process.pid });

  const appUrl = server.url;
  hardenSession(session.defaultSession);
  // Every WebContents, the window's included (created below), gets the navigation rules.
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, { appUrl, openExternal: (url) => shell.openExternal(url) }),
  );
  await session.defaultSession.cookies.set(desktopSession.cookie);

  const importFiles = (paths: readonly string[]): Promise<DesktopImportOutcome[]> =>
    importEvidenceFiles(workspace.db, desktopSession.userId, paths);
  registerIpc(appUrl, {
    appVersion: VERSION,
    importEvidence: async () => (await opener.chooseAndImport()) ?? [],
    revealDataFolder: () => revealDataFolder(dataDir),
  });
  installMenu(
    {
      importEvidence: () =>
        void opener.chooseAndImport().then((outcomes) => {
          if (outcomes && outcomes.length > 0) report(outcomes);
        }),
      revealDataFolder: () => void revealDataFolder(dataDir).catch((error: unknown) => console.error(error)),
      about: () => void showAbout(mainWindow, { appName: app.getName(), version: VERSION, dataDir, serverUrl: appUrl }),
    },
    { isDev: !app.isPackaged, platform: process.platform, appName: app.getName() },
  );

  const window = createMainWindow({ preload: join(here, '../preload/index.cjs'), stateFile: windowStateFile(dataDir) });
  mainWindow = window;
  window.on('closed', () => {
    mainWindow = null;
  });
  await window.loadURL(appUrl);
  // Only now: the preload has run and keeps outcomes until the renderer listens.
  await opener.start({
    importFiles,
    confirm: (paths) => confirmEvidenceImport(mainWindow, paths),
    report,
    window: () => mainWindow,
  });
  await opener.openArgv(process.argv, process.cwd());
}

/** Ends the session, withdraws server.json, stops the server and closes the database. */
async function shutdown(current: Running): Promise<void> {
  try {
    current.stopWatchingNetwork();
    removeServerInfo(current.dataDir, process.pid);
    await current.session.end();
  } finally {
    await current.server.close();
  }
}

if (!app.requestSingleInstanceLock()) {
  // The first instance gets this launch's argv through 'second-instance'.
  app.quit();
} else {
  listenForOpenedFiles(app, opener, () => {
    if (mainWindow) focusWindow(mainWindow);
  });

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error(error);
      dialog.showErrorBox('Scandesk could not start', error instanceof Error ? error.message : String(error));
      const current = running;
      running = undefined;
      void (current ? shutdown(current) : Promise.resolve()).finally(() => app.exit(1));
    });

  app.on('window-all-closed', () => app.quit());

  app.on('will-quit', (event) => {
    const current = running;
    if (!current) return;
    event.preventDefault();
    running = undefined;
    void shutdown(current)
      .catch((error: unknown) => console.error('closing the store failed:', error))
      .finally(() => app.exit(0));
  });
}
