import { describe, expect, it } from 'vitest';
import { SyncTally, syncOutcome } from '../../../src/main/sync/sync-tally';

describe('syncOutcome', () => {
  it('is done only when the run went through without a problem', () => {
    expect(syncOutcome(null, 0)).toBe('done');
    expect(syncOutcome(null, 1)).toBe('partial');
    expect(syncOutcome('interrupted', 0)).toBe('partial');
    expect(syncOutcome('interrupted', 3)).toBe('partial');
    expect(syncOutcome('unreachable', 1)).toBe('unreachable');
  });
});

describe('SyncTally', () => {
  it('makes a summary of what it counted, copies that later counting leaves alone', () => {
    const tally = new SyncTally();
    tally.pulled.new = 3;
    tally.pulled.bytes = 2048;
    tally.pushed.sent = 1;
    tally.gone = 2;
    tally.problem('scan_1', 'refused: bad timeline');
    const summary = tally.summary('team', Date.UTC(2026, 10, 26, 4), Date.UTC(2026, 10, 26, 4, 0, 5));
    tally.pulled.new = 99;
    tally.problem('push', 'later');
    expect(summary).toEqual({
      remote: 'team',
      outcome: 'partial',
      started_at: '2026-11-26T04:00:00.000Z',
      finished_at: '2026-11-26T04:00:05.000Z',
      pulled: { new: 3, changed: 0, unchanged: 0, bytes: 2048 },
      pushed: { sent: 1, waiting: 0 },
      gone: 2,
      errors: [{ what: 'scan_1', why: 'refused: bad timeline' }],
    });
  });
});
