import { dialog, Menu, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';

// The application menu and About box. The template is built by a plain function so that the
// tests check it without Electron's Menu.

export interface MenuActions {
  importEvidence(): void;
  revealDataFolder(): void;
  about(): void;
}

export interface MenuOptions {
  /** Reload and developer tools are for development builds only. */
  isDev: boolean;
  platform: NodeJS.Platform;
  appName: string;
}

export function menuTemplate(
  actions: MenuActions,
  { isDev, platform, appName }: MenuOptions,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: `About ${appName}`, click: () => actions.about() };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Import evidence…', accelerator: 'CmdOrCtrl+O', click: () => actions.importEvidence() },
      { label: 'Reveal data folder', click: () => actions.revealDataFolder() },
      { type: 'separator' },
      // macOS quits from the app menu; a second Quit in File would be out of place there.
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...(isDev
        ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as const)
        : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  return [
    ...(mac
      ? [
          {
            label: appName,
            submenu: [
              about,
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
    { role: 'help', submenu: [about] },
  ];
}

export function installMenu(actions: MenuActions, options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(actions, options)));
}

export interface AboutInfo {
  appName: string;
  version: string;
  dataDir: string;
  serverUrl: string;
}

export function aboutText({ appName, version, dataDir, serverUrl }: AboutInfo): { message: string; detail: string } {
  return { message: `${appName} ${version}`, detail: `Data folder: ${dataDir}\nLocal server: ${serverUrl}` };
}

export async function showAbout(window: BrowserWindow | null, info: AboutInfo): Promise<void> {
  const options = { type: 'info' as const, title: `About ${info.appName}`, buttons: ['OK'], ...aboutText(info) };
  await (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
}
