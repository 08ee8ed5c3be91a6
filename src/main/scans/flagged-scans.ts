import type { ScanStatus } from '../../shared/api/scans';

// A scan is clean when it completed without violations; every other scan is flagged, and the
// flagged rollups (migration 2026_12_06_090000) count only those, by status and with violations or
// not, so that a clean submit writes none of them. A status or violations filter then has two kinds
// of answer: one that no clean scan matches is a sum of the flagged rows that match it; one that
// every clean scan matches is all the scans (the rollups without those columns) less the flagged
// rows that do not match it.

/** The terms of a filter that the flagged rollups answer. */
export interface FlagFilter {
  status?: ScanStatus | undefined;
  has_violations?: boolean | undefined;
}

/** Whether every clean scan matches the filter: then its count is all scans less the flagged misses. */
export function matchesCleanScans({ status, has_violations }: FlagFilter): boolean {
  return (status === undefined || status === 'completed') && has_violations !== true;
}
