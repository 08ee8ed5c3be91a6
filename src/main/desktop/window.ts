import { BrowserWindow, screen, type WebPreferences } from 'electron';
import { loadWindowState, MIN_HEIGHT, MIN_WIDTH, saveWindowState, type WindowState } from './window-state';

// The one app window. Its web preferences are the locked-down set, asserted exactly by
// test/unit/desktop/shell.test.ts: the served UI gets no Node and talks to main only through the
// preload's typed object.

export function secureWebPreferences(preload: string): WebPreferences {
  return { preload, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true };
}

export interface MainWindowOptions {
  preload: string;
  /** <userData>/window-state.json */
  stateFile: string;
}

function currentState(window: BrowserWindow): WindowState {
  // The normal bounds, so that a maximized window restores to the size it had before.
  const bounds = window.getNormalBounds();
  return { ...bounds, maximized: window.isMaximized() };
}

export function createMainWindow({ preload, stateFile }: MainWindowOptions): BrowserWindow {
  const state = loadWindowState(
    stateFile,
    // Primary first: a position that fits no display falls back to the primary one.
    [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((display) => display.workArea),
  );
  const window = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: 'Scandesk',
    show: false,
    webPreferences: secureWebPreferences(preload),
  });
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    try {
      saveWindowState(stateFile, currentState(window));
    } catch (error) {
      // Losing the window's size is no reason to stop quitting.
      console.error('could not save the window state:', error);
    }
  });
  return window;
}

/** Brings the window to the front, as a second launch or an opened file expects. */
export function focusWindow(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
