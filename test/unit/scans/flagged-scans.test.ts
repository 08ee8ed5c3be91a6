import { describe, expect, it } from 'vitest';
import { SCAN_STATUSES } from '../../../src/shared/api/scans';
import { matchesCleanScans } from '../../../src/main/scans/flagged-scans';

describe('matchesCleanScans', () => {
  it('is true exactly when a completed scan without violations passes the filter', () => {
    for (const status of [undefined, ...SCAN_STATUSES]) {
      for (const has_violations of [undefined, true, false]) {
        const clean = { status: 'completed', violations: false };
        const passes =
          (status === undefined || status === clean.status) &&
          (has_violations === undefined || has_violations === clean.violations);
        expect(matchesCleanScans({ status, has_violations }), `${status} ${has_violations}`).toBe(passes);
      }
    }
  });
});
