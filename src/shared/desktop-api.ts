/**
 * What the desktop shell's preload exposes to the renderer as `window.desktop`. The renderer
 * must work without it: in a browser there is no desktop.
 */
export interface DesktopApi {
  readonly isDesktop: true;
  /** The app's version. */
  readonly version: string;
}
