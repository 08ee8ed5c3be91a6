import type { ScanSummary } from '../../../../shared/api/scans';
import { startsWithFolded } from '../../../../shared/name-fold';
import { parseDateOrDateTime, parseUntil } from '../../../../shared/time';

/** The list filters as GET /v1/scans takes them (see toScanListQuery). */
export interface ListFilters {
  since?: string | undefined;
  until?: string | undefined;
  tool?: string | undefined;
  tool_prefix?: string | undefined;
  status?: string | undefined;
  organization_id?: string | undefined;
  has_violations?: boolean | undefined;
  package_id?: string | undefined;
}

/**
 * Whether the server's list with these filters would include `scan`, by the rules of GET
 * /v1/scans: since inclusive, until exclusive (a date: up to the end of that UTC day), the tool by exact
 * name or by the start of its name letter case aside.
 */
export function matchesListFilters(scan: ScanSummary, filters: ListFilters): boolean {
  const at = Date.parse(scan.created_at);
  const since = filters.since === undefined ? null : parseDateOrDateTime(filters.since);
  const until = filters.until === undefined ? null : parseUntil(filters.until);
  if (since !== null && at < since) return false;
  if (until !== null && at >= until) return false;
  if (filters.tool !== undefined && scan.tool !== filters.tool) return false;
  if (filters.tool_prefix !== undefined && !startsWithFolded(scan.tool, filters.tool_prefix)) return false;
  if (filters.status !== undefined && scan.status !== filters.status) return false;
  if (filters.organization_id !== undefined && scan.organization_id !== filters.organization_id) return false;
  if (filters.has_violations !== undefined && scan.violation_count > 0 !== filters.has_violations) return false;
  // A live row does not say which package a scan came from: rather than count every new scan as
  // a match, a list filtered by package id counts none (a reload shows an import made meanwhile).
  if (filters.package_id !== undefined) return false;
  return true;
}

/**
 * How many of the scans heard of live since `sinceMs` (when the list on screen was fetched) the
 * list would now show and does not yet: each id once, however often it was heard.
 */
export function countNewMatching(
  heard: readonly { scan: ScanSummary; at: number }[],
  sinceMs: number,
  filters: ListFilters,
  shown: ReadonlySet<string>,
): number {
  const ids = new Set<string>();
  for (const { scan, at } of heard) {
    if (at > sinceMs && !shown.has(scan.id) && matchesListFilters(scan, filters)) ids.add(scan.id);
  }
  return ids.size;
}
