import { describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../../src/shared/api/sync';
import { megabytes, syncExitCode, syncProgressText, syncSummaryText } from '../../../src/cli/sync-format';

const summary: SyncSummary = {
  remote: 'team',
  outcome: 'done',
  started_at: '2026-11-26T04:00:00.000Z',
  finished_at: '2026-11-26T04:00:05.000Z',
  pulled: { new: 1200, changed: 1, unchanged: 10, bytes: 3_100_000 },
  pushed: { sent: 2, waiting: 0 },
  gone: 0,
  errors: [],
};

describe('sync text', () => {
  it('shows progress with its total when known', () => {
    expect(syncProgressText({ type: 'progress', phase: 'pull', done: 1200, total: 5000, bytes: 3_100_000 })).toBe(
      'pull: 1,200 of 5,000 scans, 3.1 MB',
    );
    expect(syncProgressText({ type: 'progress', phase: 'push', done: 3, total: null, bytes: 0 })).toBe(
      'push: 3 scans, 0 MB',
    );
    expect(syncProgressText({ type: 'progress', phase: 'organizations', done: 1, total: 2, bytes: 2048 })).toBe(
      'organizations: 1 of 2 organizations, 0.00 MB',
    );
  });

  it('writes megabytes with one digit once they count', () => {
    expect(megabytes(0)).toBe('0 MB');
    expect(megabytes(50_000)).toBe('0.05 MB');
    expect(megabytes(12_345_678)).toBe('12.3 MB');
  });

  it('sums a run up in one line', () => {
    expect(syncSummaryText(summary)).toBe(
      'team: done. pulled 1,200 new, 1 changed, 10 unchanged (3.1 MB); pushed 2, 0 waiting',
    );
  });

  it('says what the remote no longer has, and each problem on its own line', () => {
    const text = syncSummaryText({
      ...summary,
      outcome: 'partial',
      gone: 4,
      errors: [{ what: 'scan_1', why: 'refused: \u001b[31mbad timeline' }],
    });
    expect(text).toBe(
      'team: partial. pulled 1,200 new, 1 changed, 10 unchanged (3.1 MB); pushed 2, 0 waiting; 4 scans no longer on the remote, kept here\n' +
        '  scan_1: refused: \\u001b[31mbad timeline',
    );
    expect(syncSummaryText({ ...summary, gone: 1 })).toContain('1 scan no longer on the remote, kept here');
  });

  it('says whether the copies are in step, and names each differing day', () => {
    const checked = (convergence: SyncSummary['convergence']) => syncSummaryText({ ...summary, convergence });
    expect(checked({ state: 'in_step', days: [], differing_days: 0 })).toMatch(/0 waiting; in step$/);
    expect(checked({ state: 'unchecked', why: 'the sync was partial', days: [], differing_days: 0 })).toMatch(
      /0 waiting$/,
    );
    const counts = { scans: 0, tokens: 0, violations: 0 };
    expect(
      checked({
        state: 'differs',
        why: '2 days differ',
        days: [{ organization_id: 'org_1', day: '2026-11-25', here: counts, there: { ...counts, scans: 1200 } }],
        differing_days: 2,
      }),
    ).toMatch(/0 waiting; 2 days differ\n {2}org_1 2026-11-25: 0 scans here, 1,200 there$/);
  });

  it('says an unreachable remote plainly, with why', () => {
    expect(
      syncSummaryText({
        ...summary,
        outcome: 'unreachable',
        errors: [{ what: 'remote', why: 'cannot reach team.example: the connection was refused' }],
      }),
    ).toBe('team: could not reach it\n  remote: cannot reach team.example: the connection was refused');
  });

  it('exits 0 done, 1 partial, 2 unreachable, the worst of several', () => {
    expect(syncExitCode([])).toBe(0);
    expect(syncExitCode(['done', 'done'])).toBe(0);
    expect(syncExitCode(['done', 'partial'])).toBe(1);
    expect(syncExitCode(['partial', 'unreachable', 'done'])).toBe(2);
  });
});
