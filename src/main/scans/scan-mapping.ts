import type { Scan, ScanOrigin, ScanPush, ScanSummary, Violation } from '../../shared/api/scans';
import { SEVERITY_BY_RANK } from '../../shared/policy/severity';
import { formatTimestamp } from '../../shared/time';
import type { ScanRow, ViolationRow } from '../db/index';
import type { ScanNotice } from '../live/scan-feed';
import type { AcknowledgedPush } from './scan-remotes.repository';
import type { ListedScanRow } from './scans.repository';

export function toViolation(row: ViolationRow): Violation {
  return {
    id: row.id,
    rule: row.rule,
    severity: row.severity,
    message: row.message,
    timeline_index: row.timeline_index,
  };
}

/**
 * The scan object with the violations given: all of them in a package's scan.json, the first
 * SCAN_VIOLATIONS_INLINE_MAX in an API response. The count is the stored one, so a response says
 * whether it lists them all.
 */
export function toScan(row: ScanRow, violations: readonly ViolationRow[]): Scan {
  return {
    id: row.id,
    created_at: formatTimestamp(row.created_at),
    tool: row.tool,
    action: row.action,
    tokens: row.tokens,
    status: row.status,
    violations: violations.map(toViolation),
    violation_count: row.violation_count,
    violations_truncated: violations.length < row.violation_count,
    organization_id: row.organization_id,
    source: row.source,
  };
}

/**
 * The scan object as `viewerId` reads it: an imported scan's package id and origin are its
 * importer's to see. A package's scan.json is toScan alone, so that an export reads as before.
 */
export function toScanFor(viewerId: string, row: ScanRow, violations: readonly ViolationRow[]): Scan {
  const scan = toScan(row, violations);
  if (row.submitted_by !== viewerId || row.package_id === null) return scan;
  return {
    ...scan,
    package_id: row.package_id,
    ...(row.package_origin === null ? {} : { package_origin: row.package_origin }),
  };
}

/**
 * What a scan object says of sync: a pulled scan's origin (`remote` the remote's name, null once it
 * was removed) and the remotes that acknowledged a pushed one; neither when there is nothing to say.
 */
export function toSyncMarks(
  row: ScanRow,
  remote: string | null,
  pushes: readonly AcknowledgedPush[],
): { origin?: ScanOrigin; pushed?: ScanPush[] } {
  return {
    ...(row.origin_id === null ? {} : { origin: { remote, id: row.origin_id } }),
    ...(pushes.length === 0
      ? {}
      : {
          pushed: pushes.map((push) => ({
            remote: push.remote,
            id: push.remote_scan_id,
            violation_count: push.remote_violation_count,
            worst_severity:
              push.remote_worst_severity === null ? null : (SEVERITY_BY_RANK[push.remote_worst_severity] ?? null),
          })),
        }),
  };
}

export function toScanSummary(row: ListedScanRow): ScanSummary {
  return {
    id: row.id,
    created_at: formatTimestamp(row.created_at),
    tool: row.tool,
    tokens: row.tokens,
    status: row.status,
    action: row.action,
    organization_id: row.organization_id,
    source: row.source,
    violation_count: row.violation_count,
    worst_severity: SEVERITY_BY_RANK[row.worst_severity] ?? null,
  };
}

/** What the live feed tells of a stored scan: its list row, and whose it is. */
export const toScanNotice = (row: ScanRow): ScanNotice => ({ ...toScanSummary(row), submitted_by: row.submitted_by });
