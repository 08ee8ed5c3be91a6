import { describe, expect, it } from 'vitest';
import type { SyncOutcome } from '../../../../src/shared/api/sync';
import type { RemoteRow } from '../../../../src/main/db/index';
import { FIRST_RETRY_MS, retryDelayMs } from '../../../../src/main/sync/background/next-sync';
import { countFailure, scheduled, type Seen } from '../../../../src/main/sync/background/scheduled-remote';

const T = Date.UTC(2026, 10, 26, 12, 0, 0);

const row = (overrides: Partial<RemoteRow> = {}): RemoteRow => ({
  id: 'remote_1',
  name: 'team',
  url: 'https://scandesk.example.org',
  user_id: 'user_1',
  kind: 'scandesk',
  remote_user_id: null,
  ca_pem: null,
  allow_insecure_http: 0,
  background: 1,
  interval_minutes: 15,
  push_since: T - 3_600_000,
  created_at: T - 3_600_000,
  cursor: null,
  last_sync_at: null,
  last_sync: null,
  lease_owner: null,
  lease_until: null,
  ...overrides,
});

const ran = (at: number, outcome: SyncOutcome): Partial<RemoteRow> => ({
  last_sync_at: at,
  last_sync: JSON.stringify({ remote: 'team', outcome }),
});

describe('scheduled', () => {
  it('reads the row: background, interval, lease, and the last run with its outcome', () => {
    const seen = new Map<string, Seen>();
    expect(scheduled(row({ background: 0, lease_until: T, ...ran(T, 'partial') }), seen)).toEqual({
      id: 'remote_1',
      name: 'team',
      background: false,
      intervalMinutes: 15,
      lastSyncAt: T,
      lastOutcome: 'partial',
      unreachableStreak: 0,
      leaseUntil: T,
    });
    expect(scheduled(row(), new Map())).toMatchObject({ lastSyncAt: null, lastOutcome: null });
  });

  it('takes a summary it cannot read for no outcome', () => {
    expect(scheduled(row({ last_sync_at: T, last_sync: '{not json' }), new Map()).lastOutcome).toBeNull();
  });

  it('counts unreachable runs in a row once each, however often it reads the row, and starts over after one that reached the remote', () => {
    const seen = new Map<string, Seen>();
    const streaks = [
      ran(T, 'unreachable'),
      ran(T, 'unreachable'),
      ran(T + 1, 'unreachable'),
      ran(T + 2, 'unreachable'),
      ran(T + 3, 'partial'),
      ran(T + 4, 'unreachable'),
    ].map((last) => scheduled(row(last), seen).unreachableStreak);
    expect(streaks).toEqual([1, 1, 2, 3, 0, 1]);
  });

  it('waits after a run that failed before saving a summary as after an unreachable one, until a later run is saved', () => {
    const seen = new Map<string, Seen>();
    const before = row(ran(T, 'done'));
    scheduled(before, seen);
    countFailure(seen, 'remote_1', T + 10);
    const failed = scheduled(before, seen);
    expect(failed).toMatchObject({ lastSyncAt: T + 10, lastOutcome: 'unreachable', unreachableStreak: 1 });
    expect(retryDelayMs(failed)).toBe(FIRST_RETRY_MS);
    countFailure(seen, 'remote_1', T + 20);
    expect(retryDelayMs(scheduled(before, seen))).toBe(2 * FIRST_RETRY_MS);
    // A run saved since counts instead, and the failures are behind it.
    expect(scheduled(row(ran(T + 30, 'done')), seen)).toMatchObject({
      lastSyncAt: T + 30,
      lastOutcome: 'done',
      unreachableStreak: 0,
    });
  });

  it('counts a failure of a remote it has not read yet', () => {
    const seen = new Map<string, Seen>();
    countFailure(seen, 'remote_1', T);
    expect(scheduled(row(), seen)).toMatchObject({ lastSyncAt: T, lastOutcome: 'unreachable', unreachableStreak: 1 });
  });
});
