import { describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../../../../src/shared/api/sync';
import {
  progressText,
  summaryText,
  testText,
  waitingText,
} from '../../../../../src/renderer/src/features/settings/sync/sync-words';

const summary = (overrides: Partial<SyncSummary> = {}): SyncSummary => ({
  remote: 'team',
  outcome: 'done',
  started_at: '2026-11-26T12:00:00.000Z',
  finished_at: '2026-11-26T12:00:03.000Z',
  pulled: { new: 1200, changed: 3, unchanged: 0, bytes: 3_250_586 },
  pushed: { sent: 1, waiting: 0 },
  gone: 0,
  errors: [],
  ...overrides,
});

describe('sync words', () => {
  it('says a phase with done of total while the total is known, and the bytes so far', () => {
    expect(progressText({ type: 'progress', phase: 'pull', done: 1200, total: 5000, bytes: 3_250_586 })).toBe(
      'Pull: 1,200 of 5,000 scans, 3.1 MiB',
    );
    expect(progressText({ type: 'progress', phase: 'pull', done: 1, total: null, bytes: 10 })).toBe(
      'Pull: 1 scan, 10 B',
    );
    expect(progressText({ type: 'progress', phase: 'push', done: 0, total: 1, bytes: 0 })).toBe(
      'Push: 0 of 1 scan, 0 B',
    );
    expect(progressText({ type: 'progress', phase: 'organizations', done: 2, total: 3, bytes: 2048 })).toBe(
      'Organizations: 2 of 3, 2.0 KiB',
    );
  });

  it('sums a run up in one sentence, naming scans gone from the remote as kept here', () => {
    expect(summaryText(summary())).toBe(
      'Synced: pulled 1,200 new, 3 changed, 0 unchanged (3.1 MiB); pushed 1, 0 waiting.',
    );
    expect(summaryText(summary({ outcome: 'partial', gone: 2 }))).toBe(
      'Partly synced: pulled 1,200 new, 3 changed, 0 unchanged (3.1 MiB); pushed 1, 0 waiting; 2 scans no longer on the remote, kept here.',
    );
    expect(summaryText(summary({ outcome: 'unreachable' }))).toBe('Could not reach the remote.');
  });

  it('says whether the store is in step with the remote, and the first day that differs', () => {
    const counts = (scans: number) => ({ scans, tokens: 0, violations: 0 });
    expect(summaryText(summary({ convergence: { state: 'in_step', days: [], differing_days: 0 } }))).toMatch(
      /pushed 1, 0 waiting; in step with the remote\.$/,
    );
    expect(
      summaryText(
        summary({
          convergence: {
            state: 'differs',
            days: [{ organization_id: 'org', day: '2026-11-20', here: counts(1), there: counts(3) }],
            differing_days: 2,
          },
        }),
      ),
    ).toMatch(/; 2 days differ from the remote \(2026-11-20: 1 scan here, 3 there\)\.$/);
    expect(
      summaryText(
        summary({ convergence: { state: 'unchecked', why: 'an upstream server', days: [], differing_days: 0 } }),
      ),
    ).toBe('Synced: pulled 1,200 new, 3 changed, 0 unchanged (3.1 MiB); pushed 1, 0 waiting.');
  });

  it("says what a test found: the remote's kind and what its user sees", () => {
    expect(testText({ kind: 'scandesk', remote_user_id: 'u', organizations: 1, scans: 3000 })).toBe(
      "Reached a Scandesk server: the token's user sees 3,000 scans in 1 organization.",
    );
    expect(testText({ kind: 'upstream', organizations: 0, scans: 1 })).toBe(
      "Reached an upstream server: the token's user sees 1 scan in 0 organizations.",
    );
  });

  it('says what waits to go up as the server counts it now, else as the last run did, and when it is not known', () => {
    const remote = { kind: 'scandesk' as const, pending_push: undefined, last_sync: null };
    expect(waitingText(remote)).toBe('not known until the first sync');
    expect(waitingText({ ...remote, pending_push: 0 })).toBe('nothing');
    expect(waitingText({ ...remote, pending_push: 1 })).toBe('1 scan');
    expect(waitingText({ ...remote, last_sync: summary({ pushed: { sent: 0, waiting: 4 } }) })).toBe('4 scans');
    expect(waitingText({ ...remote, pending_push: 2, last_sync: summary({ pushed: { sent: 0, waiting: 4 } }) })).toBe(
      '2 scans',
    );
    expect(waitingText({ kind: 'upstream', pending_push: 0, last_sync: null })).toBe(
      'nothing: scans are not pushed to an upstream server',
    );
  });
});
