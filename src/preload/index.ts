import { contextBridge, ipcRenderer } from 'electron';
import { DESKTOP_CHANNELS, type DesktopApi, type DesktopImportOutcome } from '../shared/desktop-api';

// The renderer's only way to the desktop: one typed object over a fixed list of channels. It
// hands out no ipcRenderer and no Node: each member does one thing with checked arguments.

type ImportedListener = (outcomes: DesktopImportOutcome[]) => void;

const listeners = new Set<ImportedListener>();
// Imports of files given at launch can finish before React has subscribed: kept until it does.
const undelivered: DesktopImportOutcome[][] = [];

ipcRenderer.on(DESKTOP_CHANNELS.imported, (_event, outcomes: DesktopImportOutcome[]) => {
  if (listeners.size === 0) undelivered.push(outcomes);
  for (const listener of listeners) listener(outcomes);
});

const api = {
  isDesktop: true,
  appVersion: String(ipcRenderer.sendSync(DESKTOP_CHANNELS.appVersion)),
  importEvidence: () => ipcRenderer.invoke(DESKTOP_CHANNELS.importEvidence) as Promise<DesktopImportOutcome[]>,
  revealDataFolder: async () => {
    await ipcRenderer.invoke(DESKTOP_CHANNELS.revealDataFolder);
  },
  onImported(listener: ImportedListener) {
    if (typeof listener !== 'function') throw new TypeError('onImported needs a function');
    listeners.add(listener);
    for (const outcomes of undelivered.splice(0)) listener(outcomes);
    return () => {
      listeners.delete(listener);
    };
  },
} satisfies DesktopApi;

contextBridge.exposeInMainWorld('desktop', api);
