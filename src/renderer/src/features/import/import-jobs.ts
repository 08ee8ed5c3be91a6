import type { ImportResult } from '../../../../shared/api/evidence';
import type { ErrorDetail } from '../../../../shared/api/error-codes';

export type JobStatus = 'queued' | 'uploading' | 'imported' | 'refused';

export interface ImportJob {
  id: number;
  name: string;
  size: number;
  status: JobStatus;
  sent: number;
  total: number;
  result?: ImportResult;
  /** Why the file was refused: the server's message, or ours for files never sent. */
  error?: { message: string; details: ErrorDetail[] };
}

export type JobAction =
  | { type: 'add'; jobs: ImportJob[] }
  | { type: 'progress'; id: number; sent: number; total: number }
  | { type: 'imported'; id: number; result: ImportResult }
  | { type: 'refused'; id: number; message: string; details: ErrorDetail[] }
  | { type: 'clear-finished' };

export const NOT_A_ZIP =
  'Not an evidence ZIP: only .zip files exported by Scandesk or the upstream service can be imported.';

/** Files that are not ZIPs are refused here: sending them would only earn the same refusal later. */
export function localRefusal(file: { name: string; type: string }): string | null {
  const zipName = /\.zip$/i.test(file.name);
  const zipType = file.type === '' || /zip/i.test(file.type) || file.type === 'application/octet-stream';
  return zipName && zipType ? null : NOT_A_ZIP;
}

export function newJob(id: number, file: { name: string; size: number; type: string }): ImportJob {
  const refusal = localRefusal(file);
  return {
    id,
    name: file.name,
    size: file.size,
    status: refusal ? 'refused' : 'queued',
    sent: 0,
    total: file.size,
    ...(refusal ? { error: { message: refusal, details: [] } } : {}),
  };
}

export const isFinished = (job: ImportJob): boolean => job.status === 'imported' || job.status === 'refused';

export function jobsReducer(jobs: readonly ImportJob[], action: JobAction): ImportJob[] {
  switch (action.type) {
    case 'add':
      return [...action.jobs, ...jobs];
    case 'clear-finished':
      return jobs.filter((job) => !isFinished(job));
    case 'progress':
      return jobs.map((job) =>
        job.id === action.id ? { ...job, status: 'uploading', sent: action.sent, total: action.total } : job,
      );
    case 'imported':
      return jobs.map((job) =>
        job.id === action.id ? { ...job, status: 'imported', sent: job.total, result: action.result } : job,
      );
    case 'refused':
      return jobs.map((job) =>
        job.id === action.id
          ? { ...job, status: 'refused', error: { message: action.message, details: action.details } }
          : job,
      );
  }
}

/** Whole percent, never 100 before the server has answered. */
export function percent(job: ImportJob): number {
  if (job.status === 'imported') return 100;
  if (job.total <= 0) return 0;
  return Math.min(99, Math.floor((job.sent / job.total) * 100));
}

/** Drags of text or links from the page are not imports: only drags that carry files count. */
export function carriesFiles(types: readonly string[] | null | undefined): boolean {
  return Array.from(types ?? []).includes('Files');
}

/**
 * The package's id for each stored id that differs from it: a scan the importer did not own is
 * stored under an id of its own, and the page names both so that the package's id can be found.
 */
export function packageIdsByStoredId(result: ImportResult): Map<string, string> {
  const byStored = new Map<string, string>();
  for (const [packageId, stored] of Object.entries(result.ids)) {
    if (stored !== packageId) byStored.set(stored, packageId);
  }
  return byStored;
}

export function summary(result: ImportResult): string {
  const scans = (n: number): string => `${n} scan${n === 1 ? '' : 's'}`;
  return `Imported ${scans(result.imported.length)}, unchanged ${scans(result.unchanged.length)}`;
}
