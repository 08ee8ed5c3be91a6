import type { Severity } from '../../../shared/api/scans';

// Rollups kept exact by triggers on scans and violations (migrations 2026_11_21_090000,
// 2026_11_21_100000, keyed by origin since 2026_11_27_130000, scan_hours 2026_11_30_090000 and
// 2026_12_03_090000, organization_days 2026_12_01_090000, the flagged scans 2026_12_06_090000,
// organization_hours 2026_12_07_090000): sums
// over these stand in for scans over every visible row.

/** Scans per (organization, submitter, tool, status, with violations or not): the list's `total`. */
export interface ScanCountTable {
  /** The scan's organization_id, or '' for none. */
  organization_key: string;
  submitted_by: string;
  tool: string;
  status: string;
  /** 1 when violation_count > 0, else 0. */
  with_violations: number;
  /** The scan's origin_remote_id, or '' for a scan made here (docs/contract/api.md#origins). */
  origin_key: string;
  scans: number;
}

/** Per UTC day and (organization, submitter, tool, action): what day-bucket token charts sum. */
export interface ScanDayTable {
  /** Epoch ms of the UTC midnight that starts the day. */
  day: number;
  /** The scans' organization_id, or '' for none. */
  organization_key: string;
  submitted_by: string;
  tool: string;
  action: string;
  /** The scan's origin_remote_id, or '' for a scan made here (docs/contract/api.md#origins). */
  origin_key: string;
  scans: number;
  /** numeric on PostgreSQL, where a bigint overflows (migration 2026_11_25_180000): read it through doubleSum. */
  tokens: number;
  /** The sum of the scans' violation_count. */
  violations: number;
}

/**
 * scan_days summed over the submitters, per UTC day and (organization, tool, action, origin): what
 * the token charts sum for the organizations a caller manages, who sees every submitter's scans there.
 */
export type OrganizationDayTable = Omit<ScanDayTable, 'submitted_by'>;

/**
 * scan_days per UTC hour: the list's `total` over a partial day, and what hour-bucket token
 * charts (and a day bucket's partial days) sum.
 */
export type ScanHourTable = Omit<ScanDayTable, 'day'> & {
  /** Epoch ms of the start of the UTC hour. */
  hour: number;
};

/**
 * scan_hours summed over the submitters, per UTC hour and (tool, organization, action, origin): what
 * the hour-bucket token charts and the list's total over partial days sum for the organizations a
 * caller manages.
 */
export type OrganizationHourTable = Omit<ScanHourTable, 'submitted_by'>;

/** Violations per UTC day (of their scan), (organization, submitter), severity and rule. */
export interface ViolationDayTable {
  day: number;
  organization_key: string;
  submitted_by: string;
  severity: Severity;
  rule: string;
  /** The scan's origin_remote_id, or '' for a scan made here (docs/contract/api.md#origins). */
  origin_key: string;
  violations: number;
}

/**
 * Flagged scans (not completed, or with violations; the others are clean) per UTC day,
 * (submitter, organization, tool, origin), status and with violations or not: the list's total
 * over a range with a status or violations filter, for the caller's own scans.
 */
export interface FlaggedScanDayTable {
  submitted_by: string;
  /** The scan's organization_id, or '' for none. */
  organization_key: string;
  /** Epoch ms of the UTC midnight that starts the day. */
  day: number;
  status: string;
  /** 1 when violation_count > 0, else 0. */
  with_violations: number;
  tool: string;
  /** The scan's origin_remote_id, or '' for a scan made here (docs/contract/api.md#origins). */
  origin_key: string;
  scans: number;
}

/** flagged_scan_days summed over the submitters: the same total in the organizations a caller manages. */
export type FlaggedOrganizationDayTable = Omit<FlaggedScanDayTable, 'submitted_by'>;

/** flagged_scan_days per UTC hour: the same total over the whole hours of a range's partial days. */
export type FlaggedScanHourTable = Omit<FlaggedScanDayTable, 'day'> & {
  /** Epoch ms of the start of the UTC hour. */
  hour: number;
};
