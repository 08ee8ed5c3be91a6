import { describe, expect, it } from 'vitest';
import {
  dueAt,
  FIRST_RETRY_MS,
  nextSync,
  retryDelayMs,
  type ScheduledRemote,
} from '../../../../src/main/sync/background/next-sync';

const MINUTE = 60_000;
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

const remote = (overrides: Partial<ScheduledRemote> = {}): ScheduledRemote => ({
  id: overrides.name ?? 'team',
  name: 'team',
  background: true,
  intervalMinutes: 15,
  lastSyncAt: NOW - MINUTE,
  lastOutcome: 'done',
  unreachableStreak: 0,
  leaseUntil: null,
  ...overrides,
});

describe('retryDelayMs', () => {
  it('is the interval after a run that reached the remote, whole or partial', () => {
    expect(retryDelayMs(remote({ lastOutcome: 'done' }))).toBe(15 * MINUTE);
    expect(retryDelayMs(remote({ lastOutcome: 'partial' }))).toBe(15 * MINUTE);
    expect(retryDelayMs(remote({ lastOutcome: null }))).toBe(15 * MINUTE);
  });

  it('starts at 30 s after an unreachable run and doubles with each one in a row, up to the interval', () => {
    const delays = [1, 2, 3, 4, 5, 6, 40].map((streak) =>
      retryDelayMs(remote({ lastOutcome: 'unreachable', unreachableStreak: streak })),
    );
    expect(delays).toEqual([
      FIRST_RETRY_MS,
      2 * FIRST_RETRY_MS,
      4 * FIRST_RETRY_MS,
      8 * FIRST_RETRY_MS,
      16 * FIRST_RETRY_MS,
      15 * MINUTE,
      15 * MINUTE,
    ]);
  });

  it('counts an unreachable run it has not counted (a streak of 0) as the first', () => {
    expect(retryDelayMs(remote({ lastOutcome: 'unreachable', unreachableStreak: 0 }))).toBe(FIRST_RETRY_MS);
  });

  it('never waits longer than a short interval, even on the first retry', () => {
    expect(retryDelayMs(remote({ intervalMinutes: 1, lastOutcome: 'unreachable', unreachableStreak: 1 }))).toBe(
      FIRST_RETRY_MS,
    );
    expect(retryDelayMs(remote({ intervalMinutes: 1, lastOutcome: 'unreachable', unreachableStreak: 2 }))).toBe(MINUTE);
  });
});

describe('dueAt', () => {
  it('is never for a remote with background sync off', () => {
    expect(dueAt(remote({ background: false, lastSyncAt: null }), NOW)).toBeNull();
    expect(dueAt(remote({ background: false, lastSyncAt: NOW - 60 * MINUTE }), NOW)).toBeNull();
  });

  it('is now for a remote never synced', () => {
    expect(dueAt(remote({ lastSyncAt: null, lastOutcome: null }), NOW)).toBe(NOW);
  });

  it('is the interval after the last run', () => {
    expect(dueAt(remote({ lastSyncAt: NOW - MINUTE }), NOW)).toBe(NOW + 14 * MINUTE);
    expect(dueAt(remote({ lastSyncAt: NOW - 60 * MINUTE }), NOW)).toBe(NOW - 45 * MINUTE);
  });

  it('counts from now when the last run is stamped in the future (the clock went back)', () => {
    expect(dueAt(remote({ lastSyncAt: NOW + 24 * 60 * MINUTE }), NOW)).toBe(NOW + 15 * MINUTE);
  });

  it('waits for a lease another run holds to end, and ignores one that has ended', () => {
    expect(dueAt(remote({ lastSyncAt: null, leaseUntil: NOW + MINUTE }), NOW)).toBe(NOW + MINUTE);
    expect(dueAt(remote({ lastSyncAt: NOW - 60 * MINUTE, leaseUntil: NOW + MINUTE }), NOW)).toBe(NOW + MINUTE);
    expect(dueAt(remote({ lastSyncAt: NOW - MINUTE, leaseUntil: NOW + MINUTE }), NOW)).toBe(NOW + 14 * MINUTE);
    expect(dueAt(remote({ lastSyncAt: null, leaseUntil: NOW - 1 }), NOW)).toBe(NOW);
  });
});

describe('dueAt, nudged (the network came back)', () => {
  const away = remote({ lastOutcome: 'unreachable', unreachableStreak: 4, lastSyncAt: NOW - MINUTE });

  it('is the nudge for a remote whose last run could not reach it, when the nudge came after that run', () => {
    expect(dueAt(away, NOW)).toBe(NOW - MINUTE + 8 * FIRST_RETRY_MS);
    expect(dueAt(away, NOW, NOW - 1000)).toBe(NOW - 1000);
    expect(dueAt(away, NOW, NOW - 2 * MINUTE)).toBe(NOW - MINUTE + 8 * FIRST_RETRY_MS);
  });

  it('leaves a remote that was reached, or never synced, or held by a lease, as it was', () => {
    expect(dueAt(remote(), NOW, NOW)).toBe(NOW + 14 * MINUTE);
    expect(dueAt(remote({ lastSyncAt: null, lastOutcome: null }), NOW, NOW)).toBe(NOW);
    expect(dueAt({ ...away, leaseUntil: NOW + 5000 }, NOW, NOW)).toBe(NOW + 5000);
    expect(dueAt({ ...away, background: false }, NOW, NOW)).toBeNull();
  });

  it('makes nextSync run it now', () => {
    expect(nextSync([away, remote({ name: 'ok', id: 'ok' })], NOW).due).toBeNull();
    expect(nextSync([away, remote({ name: 'ok', id: 'ok' })], NOW, NOW).due?.name).toBe('team');
  });
});

describe('nextSync', () => {
  it('has nothing to do without background remotes', () => {
    expect(nextSync([], NOW)).toEqual({ due: null, wakeAt: null });
    expect(nextSync([remote({ background: false, lastSyncAt: null })], NOW)).toEqual({
      due: null,
      wakeAt: null,
    });
  });

  it('wakes when the first remote is due', () => {
    const soon = remote({ name: 'soon', lastSyncAt: NOW - 10 * MINUTE });
    const later = remote({ name: 'later', lastSyncAt: NOW - MINUTE });
    expect(nextSync([later, soon], NOW)).toEqual({ due: null, wakeAt: NOW + 5 * MINUTE });
  });

  it('syncs the remote waiting longest first, and wakes for the next', () => {
    const late = remote({ name: 'late', lastSyncAt: NOW - 60 * MINUTE });
    const later = remote({ name: 'later', lastSyncAt: NOW - 20 * MINUTE });
    const fresh = remote({ name: 'fresh', lastSyncAt: NOW - MINUTE });
    const first = nextSync([fresh, later, late], NOW);
    expect(first.due?.name).toBe('late');
    expect(first.wakeAt).toBe(NOW - 5 * MINUTE);
  });

  it('orders remotes due at the same moment by name', () => {
    const b = remote({ name: 'b', lastSyncAt: null });
    const a = remote({ name: 'a', lastSyncAt: null });
    expect(nextSync([b, a], NOW)).toEqual({ due: a, wakeAt: NOW });
  });

  it('runs one at a time: nothing is due while any remote is being synced, until its lease would end', () => {
    const due = remote({ name: 'due', lastSyncAt: null });
    const busy = remote({ name: 'busy', background: false, leaseUntil: NOW + MINUTE });
    expect(nextSync([due, busy], NOW)).toEqual({ due: null, wakeAt: NOW + MINUTE });
    expect(nextSync([due, { ...busy, leaseUntil: NOW }], NOW).due).toBe(due);
    // A lease with nothing due after it: nothing to wake for.
    expect(nextSync([busy], NOW)).toEqual({ due: null, wakeAt: null });
    // The next turn is later than the lease: the lease does not bring it forward.
    const fresh = remote({ name: 'fresh' });
    expect(nextSync([fresh, busy], NOW)).toEqual({ due: null, wakeAt: NOW + 14 * MINUTE });
  });

  it('comes back to an unreachable remote soon, without starving one that is due longer', () => {
    const offline = remote({
      name: 'offline',
      lastSyncAt: NOW - FIRST_RETRY_MS,
      lastOutcome: 'unreachable',
      unreachableStreak: 1,
    });
    const waiting = remote({ name: 'waiting', lastSyncAt: NOW - 16 * MINUTE });
    expect(nextSync([offline, waiting], NOW).due?.name).toBe('waiting');
    expect(nextSync([offline], NOW).due?.name).toBe('offline');
    expect(nextSync([offline], NOW - 1)).toEqual({ due: null, wakeAt: NOW });
  });
});
