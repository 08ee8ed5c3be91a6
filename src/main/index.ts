import { app, BrowserWindow, ipcMain, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HOST, DEFAULT_PORT } from './paths';
import { startServer, type RunningServer } from './server/listen';
import { VERSION } from './version';
import { openWorkspace } from './workspace';

// The thin desktop shell: open the store, start the embedded server, show the served UI.
// Everything it starts is plain Node code that the CLI and the tests run too.

let server: RunningServer | undefined;

async function listenOnDefaultOrFreePort(): Promise<RunningServer> {
  const workspace = await openWorkspace(app.getPath('userData'));
  const rendererDir = join(fileURLToPath(new URL('.', import.meta.url)), '../renderer');
  try {
    return await startServer({ workspace, port: DEFAULT_PORT, host: DEFAULT_HOST, rendererDir });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startServer({ workspace, port: 0, host: DEFAULT_HOST, rendererDir });
  }
}

function createWindow(url: string): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Scandesk',
    webPreferences: {
      preload: join(fileURLToPath(new URL('.', import.meta.url)), '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.webContents.setWindowOpenHandler(({ url: target }) => {
    if (/^https?:\/\//.test(target) && !target.startsWith(url)) void shell.openExternal(target);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, target) => {
    if (!target.startsWith(`${url}/`) && target !== url) event.preventDefault();
  });
  void window.loadURL(url);
}

ipcMain.on('scandesk:version', (event) => {
  event.returnValue = VERSION;
});

app.whenReady().then(
  async () => {
    server = await listenOnDefaultOrFreePort();
    createWindow(server.url);
  },
  (error: unknown) => {
    console.error(error);
    app.exit(1);
  },
);

app.on('window-all-closed', () => app.quit());

app.on('will-quit', (event) => {
  if (!server) return;
  event.preventDefault();
  const closing = server;
  server = undefined;
  void closing.close().finally(() => app.exit(0));
});
