import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import type { ImportResult } from '../../../../shared/api/evidence';
import type { DesktopImportOutcome } from '../../../../shared/desktop-api';
import { ServerError, uploadWithProgress } from '../../lib/api-client';
import { DropOverlay } from './DropOverlay';
import { jobsReducer, newJob, type ImportJob } from './import-jobs';

export interface ImportApi {
  /** Opens the file picker for evidence ZIPs (the "Import evidence…" action, Ctrl/Cmd+O). */
  pick(): void;
  /** Imports files dropped or picked anywhere in the window. */
  importFiles(files: readonly File[]): void;
}

interface ImportJobs {
  jobs: readonly ImportJob[];
  clearFinished(): void;
}

const ImportContext = createContext<ImportApi | null>(null);
const JobsContext = createContext<ImportJobs | null>(null);

// Everything an import adds is scans: every query over scans, stats or evidence may change.
const KEEP_ON_IMPORT = new Set(['me', 'organizations', 'organization', 'users']);

export function ImportProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [jobs, dispatch] = useReducer(jobsReducer, []);
  const input = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);
  // One upload at a time: files are chained so that a big package does not starve the others.
  const queue = useRef<Promise<void>>(Promise.resolve());

  const upload = useCallback(
    async (job: ImportJob, file: File): Promise<void> => {
      try {
        const result = await uploadWithProgress<ImportResult>(
          '/v1/evidence/imports',
          file,
          'application/zip',
          (sent, total) => dispatch({ type: 'progress', id: job.id, sent, total }),
        );
        dispatch({ type: 'imported', id: job.id, result });
        await queryClient.invalidateQueries({ predicate: (q) => !KEEP_ON_IMPORT.has(String(q.queryKey[0])) });
      } catch (error) {
        const details = error instanceof ServerError ? error.details : [];
        const message = error instanceof Error ? error.message : String(error);
        dispatch({ type: 'refused', id: job.id, message, details });
      }
    },
    [queryClient],
  );

  const importFiles = useCallback(
    (files: readonly File[]) => {
      if (files.length === 0) return;
      const added = files.map((file) => ({ file, job: newJob(nextId.current++, file) }));
      dispatch({ type: 'add', jobs: added.map((a) => a.job) });
      for (const { file, job } of added) {
        if (job.status === 'queued') queue.current = queue.current.then(() => upload(job, file));
      }
      void navigate({ to: '/import' });
    },
    [navigate, upload],
  );

  // The desktop shell imports in its own process (native dialog, files opened from the OS):
  // its outcomes join the list as finished jobs.
  const showDesktopOutcomes = useCallback(
    (outcomes: readonly DesktopImportOutcome[]) => {
      if (outcomes.length === 0) return;
      const finished = outcomes.map((outcome): ImportJob => ({
        id: nextId.current++,
        name: outcome.name,
        size: outcome.size,
        sent: outcome.size,
        total: outcome.size,
        ...(outcome.status === 'imported'
          ? { status: 'imported', result: outcome.result }
          : { status: 'refused', error: outcome.error }),
      }));
      dispatch({ type: 'add', jobs: finished });
      void navigate({ to: '/import' });
      if (outcomes.some((outcome) => outcome.status === 'imported')) {
        void queryClient.invalidateQueries({ predicate: (q) => !KEEP_ON_IMPORT.has(String(q.queryKey[0])) });
      }
    },
    [navigate, queryClient],
  );
  useEffect(() => window.desktop?.onImported(showDesktopOutcomes), [showDesktopOutcomes]);

  const pick = useCallback(() => {
    const desktop = window.desktop;
    if (!desktop) return input.current?.click();
    desktop.importEvidence().then(showDesktopOutcomes, (error: unknown) => console.error(error));
  }, [showDesktopOutcomes]);
  const api = useMemo<ImportApi>(() => ({ pick, importFiles }), [pick, importFiles]);
  const jobsApi = useMemo<ImportJobs>(
    () => ({ jobs, clearFinished: () => dispatch({ type: 'clear-finished' }) }),
    [jobs],
  );

  return (
    <ImportContext.Provider value={api}>
      <JobsContext.Provider value={jobsApi}>
        <input
          ref={input}
          type="file"
          accept=".zip,application/zip"
          multiple
          hidden
          aria-label="Evidence ZIP files to import"
          data-testid="import-input"
          onChange={(event) => {
            importFiles(Array.from(event.currentTarget.files ?? []));
            // Picking the same file again must fire change again.
            event.currentTarget.value = '';
          }}
        />
        <DropOverlay onDrop={importFiles} />
        {children}
      </JobsContext.Provider>
    </ImportContext.Provider>
  );
}

export function useImport(): ImportApi {
  const api = useContext(ImportContext);
  if (!api) throw new Error('useImport needs an ImportProvider');
  return api;
}

export function useImportJobs(): ImportJobs {
  const jobs = useContext(JobsContext);
  if (!jobs) throw new Error('useImportJobs needs an ImportProvider');
  return jobs;
}
