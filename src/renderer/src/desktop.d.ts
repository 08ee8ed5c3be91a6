import type { DesktopApi } from '../../shared/desktop-api';

// The desktop shell's preload exposes this (src/preload/index.ts); in a browser it is absent.
declare global {
  interface Window {
    readonly desktop?: DesktopApi;
  }
}
