import type { Scan, ScanSummary, Violation } from '../../shared/api/scans';
import { SEVERITY_BY_RANK } from '../../shared/policy/severity';
import { formatTimestamp } from '../../shared/time';
import type { ScanRow } from '../db/tables/scan.table';
import type { ViolationRow } from '../db/tables/violation.table';
import type { ScanNotice } from '../live/scan-feed';

export function toViolation(row: ViolationRow): Violation {
  return {
    id: row.id,
    rule: row.rule,
    severity: row.severity,
    message: row.message,
    timeline_index: row.timeline_index,
  };
}

export function toScan(row: ScanRow, violations: readonly ViolationRow[]): Scan {
  return {
    id: row.id,
    created_at: formatTimestamp(row.created_at),
    tool: row.tool,
    action: row.action,
    tokens: row.tokens,
    status: row.status,
    violations: violations.map(toViolation),
    organization_id: row.organization_id,
    source: row.source,
  };
}

export function toScanSummary(row: ScanRow): ScanSummary {
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
