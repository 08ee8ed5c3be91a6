import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent } from 'electron';
import { DESKTOP_CHANNELS, type DesktopImportOutcome } from '../../shared/desktop-api';
import { isAppUrl } from './navigation-policy';

// The main-process side of the preload's fixed channels. Every call is checked to come from a
// frame showing the app's own origin: should anything else ever load in a frame, it gets nothing.

export interface IpcHandlers {
  importEvidence(): Promise<DesktopImportOutcome[]>;
  revealDataFolder(): Promise<void>;
  appVersion: string;
}

export class ForeignSenderError extends Error {
  override readonly name = 'ForeignSenderError';
}

/** The sender's frame URL, or '' once the frame has gone (navigated away or destroyed). */
function senderUrl(event: IpcMainEvent | IpcMainInvokeEvent): string {
  try {
    return event.senderFrame?.url ?? '';
  } catch {
    return '';
  }
}

export function isTrustedSender(event: IpcMainEvent | IpcMainInvokeEvent, appUrl: string): boolean {
  return isAppUrl(senderUrl(event), appUrl);
}

export function registerIpc(appUrl: string, handlers: IpcHandlers): void {
  const guard = (event: IpcMainInvokeEvent): void => {
    if (!isTrustedSender(event, appUrl)) throw new ForeignSenderError('refused: the sender is not the app');
  };
  ipcMain.handle(DESKTOP_CHANNELS.importEvidence, async (event) => {
    guard(event);
    return handlers.importEvidence();
  });
  ipcMain.handle(DESKTOP_CHANNELS.revealDataFolder, async (event) => {
    guard(event);
    await handlers.revealDataFolder();
  });
  // Synchronous: the preload reads the version once, while the page is still loading.
  ipcMain.on(DESKTOP_CHANNELS.appVersion, (event) => {
    event.returnValue = isTrustedSender(event, appUrl) ? handlers.appVersion : '';
  });
}
