import { basename } from 'node:path';
import { dialog, type App, type BrowserWindow } from 'electron';
import type { DesktopImportOutcome } from '../../shared/desktop-api';
import { evidenceFileFromArgument, evidenceFilesFromArgv } from './file-arguments';

// Evidence files reach the app four ways: the File menu's dialog, the renderer asking for that
// dialog, the command line of this or a second launch, and macOS's open-file. All end in the one
// `importFiles` (evidence/import/file-import.ts, the API's import service); this file only
// collects them, and asks before importing the last two kinds, which the user did not pick
// inside the app.

export const EVIDENCE_FILTERS = [{ name: 'Evidence packages', extensions: ['zip'] }];

/** The native dialog; [] when cancelled. */
export async function chooseEvidenceFiles(window: BrowserWindow | null): Promise<string[]> {
  const options = {
    title: 'Import evidence',
    buttonLabel: 'Import',
    filters: EVIDENCE_FILTERS,
    properties: ['openFile', 'multiSelections'] as Array<'openFile' | 'multiSelections'>,
  };
  const picked = await (window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options));
  return picked.canceled ? [] : picked.filePaths;
}

/**
 * Asks before importing files the OS handed over: a double-click, a drag onto the icon or another
 * program starting Scandesk with a path. Files picked in the app's own dialog need no question.
 * Cancel is the default, so Enter alone imports nothing.
 */
export async function confirmEvidenceImport(window: BrowserWindow | null, paths: readonly string[]): Promise<boolean> {
  const count = paths.length === 1 ? 'an evidence package' : `${paths.length} evidence packages`;
  const options = {
    type: 'question' as const,
    title: 'Import evidence',
    message: `Import ${count} into this workspace?`,
    detail: `${paths.map((path) => basename(path)).join('\n')}\n\nThe scans will be stored as yours.`,
    buttons: ['Import', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
  };
  const answer = await (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
  return answer.response === 0;
}

export interface OpenFilesDeps {
  /** The import itself: until the store is open (before `ready`), files wait. */
  importFiles(paths: readonly string[]): Promise<DesktopImportOutcome[]>;
  /** Whether the user wants files from the OS imported (confirmEvidenceImport). */
  confirm(paths: readonly string[]): Promise<boolean>;
  /** Shows outcomes the renderer did not ask for (it did not open the dialog). */
  report(outcomes: DesktopImportOutcome[]): void;
  window(): BrowserWindow | null;
}

/**
 * Collects files and imports them one batch at a time, in arrival order; files that arrive
 * before `start` (macOS sends open-file before ready) wait for it.
 */
export class EvidenceOpener {
  private pending: string[] = [];
  private deps: OpenFilesDeps | null = null;
  private chain: Promise<void> = Promise.resolve();
  private dialogOpen = false;

  /** Files of a launch's argv (this one's, or a second instance's with its working directory). */
  openArgv(argv: readonly string[], cwd: string): Promise<void> {
    return this.open(evidenceFilesFromArgv(argv, { cwd }));
  }

  /** macOS `open-file`: one path, already absolute. */
  openPath(path: string, cwd: string): Promise<void> {
    const file = evidenceFileFromArgument(path, { cwd });
    return this.open(file === null ? [] : [file]);
  }

  open(files: readonly string[]): Promise<void> {
    if (files.length === 0) return this.chain;
    this.pending.push(...files);
    return this.flush();
  }

  start(deps: OpenFilesDeps): Promise<void> {
    this.deps = deps;
    return this.flush();
  }

  /**
   * The dialog, then the import; null when a dialog is already open (the menu's accelerator and
   * the renderer's own Ctrl/Cmd+O may both fire for one key press), else the outcomes.
   */
  async chooseAndImport(): Promise<DesktopImportOutcome[] | null> {
    const deps = this.deps;
    if (!deps || this.dialogOpen) return null;
    this.dialogOpen = true;
    let files: string[];
    try {
      files = await chooseEvidenceFiles(deps.window());
    } finally {
      this.dialogOpen = false;
    }
    const outcomes = this.chain.then(() => deps.importFiles(files));
    this.chain = outcomes.then(
      () => undefined,
      () => undefined,
    );
    return outcomes;
  }

  private flush(): Promise<void> {
    const deps = this.deps;
    if (!deps || this.pending.length === 0) return this.chain;
    const files = this.pending;
    this.pending = [];
    this.chain = this.chain.then(async () => {
      try {
        if (!(await deps.confirm(files))) return;
        const outcomes = await deps.importFiles(files);
        if (outcomes.length > 0) deps.report(outcomes);
      } catch (error) {
        console.error('importing evidence failed:', error);
      }
    });
    return this.chain;
  }
}

/** Wires the OS's ways of handing over files; call before `ready`, since open-file can come first. */
export function listenForOpenedFiles(app: App, opener: EvidenceOpener, focus: () => void): void {
  app.on('open-file', (event, path) => {
    event.preventDefault();
    focus();
    void opener.openPath(path, process.cwd());
  });
  app.on('second-instance', (_event, argv, workingDirectory) => {
    focus();
    void opener.openArgv(argv, workingDirectory);
  });
}
