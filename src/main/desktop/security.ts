import type { Session, WebContents } from 'electron';
import { isAppUrl, isSafeExternalUrl } from './navigation-policy';

// The window shows only the embedded server's pages; everything else is refused here. The
// decisions are navigation-policy.ts's (pure, unit-tested); this file only wires them to Electron.

export interface SecurityDeps {
  appUrl: string;
  openExternal(url: string): Promise<void>;
}

/** Navigation, redirects, new windows and <webview> of one WebContents. */
export function hardenWebContents(contents: WebContents, { appUrl, openExternal }: SecurityDeps): void {
  contents.setWindowOpenHandler(({ url }) => {
    // No second window ever: an app link opened "in a new tab" stays unopened rather than
    // escaping the window's handlers; a safe web link goes to the system browser.
    if (isSafeExternalUrl(url, appUrl)) void openExternal(url);
    return { action: 'deny' };
  });
  // Electron's events carry the target as event.url (the positional url argument is deprecated).
  const stayInApp = (event: { url: string; preventDefault(): void }): void => {
    if (!isAppUrl(event.url, appUrl)) event.preventDefault();
  };
  // will-navigate: the main frame; will-frame-navigate: any frame; will-redirect: a server-side hop.
  contents.on('will-navigate', stayInApp);
  contents.on('will-frame-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The UI needs no camera, notifications or anything else a permission guards. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
