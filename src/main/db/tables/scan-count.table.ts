/**
 * Scans per (organization, submitter, tool, status, with violations or not), kept exact by
 * triggers on scans: the list's `total` without a time range sums these instead of counting scans.
 */
export interface ScanCountTable {
  /** The scan's organization_id, or '' for none. */
  organization_key: string;
  submitted_by: string;
  tool: string;
  status: string;
  /** 1 when violation_count > 0, else 0. */
  with_violations: number;
  scans: number;
}
