import type {
  ViolationEntries,
  ViolationEntriesQuery,
  ViolationPage,
  ViolationPageQuery,
  ViolationSummary,
} from '../../shared/api/scan-violations';
import type { Db, ScanRow } from '../db/index';
import { notFound } from '../domain-error';
import { toViolation } from './scan-mapping';
import { findVisibleScan } from './scans.repository';
import { violationSummary } from './violation-summary';
import { violationCount, violationCountsByEntry, violationCountsByRule, violationRows } from './violations.repository';

const TIMELINE_INDEX_MAX = 2 ** 31 - 1;

/** docs/contract/auth.md#visibility: a scan the caller cannot see is not found, and so are its violations. */
async function visibleScan(db: Db, userId: string, scanId: string): Promise<ScanRow> {
  const row = await findVisibleScan(db, scanId, userId);
  if (!row) throw notFound('scan');
  return row;
}

export async function violationPage(
  db: Db,
  userId: string,
  scanId: string,
  query: ViolationPageQuery,
): Promise<ViolationPage> {
  const scan = await visibleScan(db, userId, scanId);
  const filtered = query.rule !== undefined || query.severity !== undefined;
  const total = filtered ? await violationCount(db, scanId, query) : scan.violation_count;
  const rows = query.offset >= total ? [] : await violationRows(db, scanId, query);
  return { total, violations: rows.map(toViolation) };
}

export async function readViolationSummary(db: Db, userId: string, scanId: string): Promise<ViolationSummary> {
  await visibleScan(db, userId, scanId);
  return violationSummary(await violationCountsByRule(db, scanId));
}

export async function violationsByEntry(
  db: Db,
  userId: string,
  scanId: string,
  query: ViolationEntriesQuery,
): Promise<ViolationEntries> {
  await visibleScan(db, userId, scanId);
  // timeline_index is a 32-bit integer column: no violation points past it, and PostgreSQL
  // refuses a larger bound rather than compare with it.
  if (query.offset > TIMELINE_INDEX_MAX) return { entries: [] };
  const last = Math.min(query.offset + query.limit - 1, TIMELINE_INDEX_MAX);
  const counts = await violationCountsByEntry(db, scanId, { first: query.offset, last });
  return { entries: counts.map(({ index, count }) => ({ index, violations: count })) };
}
