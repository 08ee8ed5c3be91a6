import type { ErrorDetail } from './api/error-codes';
import type { ImportResult } from './api/evidence';

/**
 * What happened to one evidence file the desktop shell imported (from its dialog, the command
 * line or the OS): the same answer the import API gives, so the renderer shows both alike.
 */
export type DesktopImportOutcome =
  | { name: string; size: number; status: 'imported'; result: ImportResult }
  | { name: string; size: number; status: 'refused'; error: { message: string; details: ErrorDetail[] } };

/**
 * The fixed IPC channels between the preload and the main process. Nothing else is listened to,
 * so the renderer cannot reach any other main-process function.
 */
export const DESKTOP_CHANNELS = {
  importEvidence: 'scandesk:import-evidence',
  revealDataFolder: 'scandesk:reveal-data-folder',
  appVersion: 'scandesk:app-version',
  /** main → renderer: imports the shell started itself (menu, command line, OS open-file). */
  imported: 'scandesk:imported',
} as const;

/**
 * What the desktop shell's preload exposes to the renderer as `window.desktop`. The renderer
 * must work without it: in a browser there is no desktop.
 */
export interface DesktopApi {
  readonly isDesktop: true;
  /** The app's version. */
  readonly appVersion: string;
  /**
   * Shows the native open dialog (.zip only) and imports the chosen files in the main process,
   * through the same code as `POST /v1/evidence/imports`; one outcome per file, none if cancelled.
   */
  importEvidence(): Promise<DesktopImportOutcome[]>;
  /** Opens the data directory in the system's file manager. */
  revealDataFolder(): Promise<void>;
  /**
   * Imports the shell started without the renderer asking; outcomes that arrived before the
   * first listener are delivered to it. Returns the unsubscribe function.
   */
  onImported(listener: (outcomes: DesktopImportOutcome[]) => void): () => void;
}
