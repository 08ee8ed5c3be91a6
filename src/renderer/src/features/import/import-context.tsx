import { createContext, useContext, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';

export interface ImportApi {
  /** Opens the file picker for evidence ZIPs (the "Import evidence…" action, Ctrl/Cmd+O). */
  pick(): void;
  /** Imports files dropped or picked anywhere in the window. */
  importFiles(files: readonly File[]): void;
}

const ImportContext = createContext<ImportApi | null>(null);

export function ImportProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const api: ImportApi = {
    pick: () => void navigate({ to: '/import' }),
    importFiles: () => void navigate({ to: '/import' }),
  };
  return <ImportContext.Provider value={api}>{children}</ImportContext.Provider>;
}

export function useImport(): ImportApi {
  const api = useContext(ImportContext);
  if (!api) throw new Error('useImport needs an ImportProvider');
  return api;
}
