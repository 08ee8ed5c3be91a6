import { Readable } from 'node:stream';
import type { ScanExportQuery } from '../../shared/api/scans';
import { SEVERITY_BY_RANK } from '../../shared/policy/severity';
import { formatTimestamp } from '../../shared/time';
import type { Db } from '../db/index';
import { csvRecord } from './csv';
import { toScanSummary } from './scan-mapping';
import { type ListedScanRow, visibleScanPage } from './scans.repository';
import { resolveFilters, toOrder } from './scans.service';

/** Rows per keyset page: each page is its own short read, so other requests run between them. */
const PAGE_ROWS = 1000;

export const CSV_COLUMNS = [
  'id',
  'created_at',
  'tool',
  'action',
  'tokens',
  'status',
  'source',
  'organization_id',
  'request_count',
  'violation_count',
  'worst_severity',
] as const;

const csvOf = (row: ListedScanRow): string =>
  csvRecord([
    row.id,
    formatTimestamp(row.created_at),
    row.tool,
    row.action,
    row.tokens,
    row.status,
    row.source,
    row.organization_id,
    row.request_count,
    row.violation_count,
    SEVERITY_BY_RANK[row.worst_severity] ?? null,
  ]);

/** Every visible scan matching the list filters, in the list's order, a keyset page at a time. */
async function* matchingRows(db: Db, userId: string, query: ScanExportQuery): AsyncGenerator<ListedScanRow[]> {
  const filters = await resolveFilters(db, userId, query);
  const order = toOrder(query.sort);
  let after: ListedScanRow | undefined;
  for (;;) {
    const rows = await visibleScanPage(db, userId, filters, { limit: PAGE_ROWS, offset: 0 }, order, after);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE_ROWS) return;
    after = rows[rows.length - 1];
  }
}

/**
 * The whole list (not a page) as CSV (a header, then a record per scan) or as one JSON array of
 * list rows, streamed: memory stays flat however many scans match.
 */
export function exportScans(db: Db, userId: string, query: ScanExportQuery): Readable {
  const format = query.format ?? 'csv';
  async function* text(): AsyncGenerator<string> {
    if (format === 'csv') yield csvRecord(CSV_COLUMNS);
    else yield '[';
    let first = true;
    for await (const rows of matchingRows(db, userId, query)) {
      if (format === 'csv') {
        yield rows.map(csvOf).join('');
      } else {
        yield (first ? '\n' : ',\n') + rows.map((row) => JSON.stringify(toScanSummary(row))).join(',\n');
        first = false;
      }
    }
    if (format === 'json') yield first ? ']\n' : '\n]\n';
  }
  return Readable.from(text());
}
