import { describe, expect, it } from 'vitest';
import { backgroundSyncDue, RETRY_MS } from '../../../src/main/sync/sync-schedule';

const NOW = Date.UTC(2026, 10, 26, 5);
const MINUTE = 60_000;
const summary = (outcome: string) => JSON.stringify({ outcome });
const remote = (values: Partial<Parameters<typeof backgroundSyncDue>[0]> = {}) => ({
  background: 1,
  interval_minutes: 15,
  last_sync_at: NOW - 5 * MINUTE,
  last_sync: summary('done'),
  ...values,
});

describe('backgroundSyncDue', () => {
  it('never syncs a remote with background sync off', () => {
    expect(backgroundSyncDue(remote({ background: 0, last_sync_at: null, last_sync: null }), NOW)).toBe(false);
  });

  it('syncs a remote never synced at once', () => {
    expect(backgroundSyncDue(remote({ last_sync_at: null, last_sync: null }), NOW)).toBe(true);
  });

  it('waits its interval after a run that reached it', () => {
    expect(backgroundSyncDue(remote(), NOW)).toBe(false);
    expect(backgroundSyncDue(remote({ last_sync_at: NOW - 15 * MINUTE }), NOW)).toBe(true);
    expect(backgroundSyncDue(remote({ last_sync: summary('partial'), last_sync_at: NOW - 14 * MINUTE }), NOW)).toBe(
      false,
    );
  });

  it('retries an unreachable remote every minute, so a sync follows the network coming back', () => {
    const down = remote({ last_sync: summary('unreachable') });
    expect(backgroundSyncDue({ ...down, last_sync_at: NOW - RETRY_MS + 1 }, NOW)).toBe(false);
    expect(backgroundSyncDue({ ...down, last_sync_at: NOW - RETRY_MS }, NOW)).toBe(true);
  });

  it('reads a summary it cannot parse as a run that reached the remote', () => {
    expect(backgroundSyncDue(remote({ last_sync: '{', last_sync_at: NOW - 2 * MINUTE }), NOW)).toBe(false);
  });
});
