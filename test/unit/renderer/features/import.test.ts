import { describe, expect, it } from 'vitest';
import {
  carriesFiles,
  isFinished,
  jobsReducer,
  localRefusal,
  newJob,
  NOT_A_ZIP,
  packageIdsByStoredId,
  percent,
  summary,
  type ImportJob,
} from '../../../../src/renderer/src/features/import/import-jobs';

const zip = { name: 'evidence.zip', size: 1000, type: 'application/zip' };

describe('import jobs', () => {
  it('accepts ZIP files by name, with the types browsers give them', () => {
    for (const type of ['application/zip', 'application/x-zip-compressed', '', 'application/octet-stream']) {
      expect(localRefusal({ name: 'a.ZIP', type })).toBeNull();
    }
  });

  it('refuses files that are not ZIPs before sending them', () => {
    expect(localRefusal({ name: 'notes.txt', type: 'text/plain' })).toBe(NOT_A_ZIP);
    expect(localRefusal({ name: 'fake.zip', type: 'text/plain' })).toBe(NOT_A_ZIP);
    expect(localRefusal({ name: 'zip', type: '' })).toBe(NOT_A_ZIP);
    const job = newJob(1, { name: 'notes.txt', size: 3, type: 'text/plain' });
    expect(job.status).toBe('refused');
    expect(job.error?.message).toBe(NOT_A_ZIP);
  });

  it('follows a job from queued through progress to its result', () => {
    let jobs: ImportJob[] = jobsReducer([], { type: 'add', jobs: [newJob(1, zip)] });
    expect(jobs[0]?.status).toBe('queued');
    jobs = jobsReducer(jobs, { type: 'progress', id: 1, sent: 500, total: 1000 });
    expect(jobs[0]?.status).toBe('uploading');
    expect(percent(jobs[0]!)).toBe(50);
    jobs = jobsReducer(jobs, { type: 'progress', id: 1, sent: 1000, total: 1000 });
    expect(percent(jobs[0]!)).toBe(99);
    jobs = jobsReducer(jobs, {
      type: 'imported',
      id: 1,
      result: { imported: ['scan_a'], unchanged: [], ids: { scan_a: 'scan_a' } },
    });
    expect(jobs[0]?.status).toBe('imported');
    expect(percent(jobs[0]!)).toBe(100);
    expect(isFinished(jobs[0]!)).toBe(true);
  });

  it('keeps the server reason and its entries on refusal', () => {
    let jobs = jobsReducer([], { type: 'add', jobs: [newJob(1, zip), newJob(2, zip)] });
    const details = [{ entry: '../x', message: 'names a parent directory' }];
    jobs = jobsReducer(jobs, { type: 'refused', id: 2, message: 'the package is unsafe', details });
    expect(jobs.find((j) => j.id === 2)?.error).toEqual({ message: 'the package is unsafe', details });
    expect(jobs.find((j) => j.id === 1)?.status).toBe('queued');
  });

  it('puts new batches first, in file order, and clears only finished jobs', () => {
    let jobs = jobsReducer([], { type: 'add', jobs: [newJob(1, zip)] });
    jobs = jobsReducer(jobs, { type: 'add', jobs: [newJob(2, zip), newJob(3, { ...zip, name: 'x.txt' })] });
    expect(jobs.map((j) => j.id)).toEqual([2, 3, 1]);
    jobs = jobsReducer(jobs, { type: 'clear-finished' });
    expect(jobs.map((j) => j.id)).toEqual([2, 1]);
  });

  it('counts only file drags', () => {
    expect(carriesFiles(['Files'])).toBe(true);
    expect(carriesFiles(['text/plain', 'text/uri-list'])).toBe(false);
    expect(carriesFiles(undefined)).toBe(false);
  });

  it('summarises a result', () => {
    expect(summary({ imported: ['a'], unchanged: ['b', 'c'], ids: { a: 'a', b: 'b', c: 'c' } })).toBe(
      'Imported 1 scan, unchanged 2 scans',
    );
    expect(percent({ ...newJob(1, { ...zip, size: 0 }), status: 'uploading' })).toBe(0);
  });

  it("names the package's id beside each scan stored under another id", () => {
    const result = {
      imported: ['scan_DERIVED', 'own'],
      unchanged: ['scan_OTHER'],
      ids: { theirs: 'scan_DERIVED', own: 'own', other: 'scan_OTHER' },
    };
    expect(packageIdsByStoredId(result)).toEqual(
      new Map([
        ['scan_DERIVED', 'theirs'],
        ['scan_OTHER', 'other'],
      ]),
    );
  });
});
