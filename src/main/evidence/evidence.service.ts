import type { Readable } from 'node:stream';
import type { EvidenceType, TimelinePage, TimelinePageQuery } from '../../shared/api/evidence';
import { EVIDENCE_TYPES } from '../../shared/api/evidence';
import { formatTimestamp, parseDateOrDateTime, parseUntil } from '../../shared/time';
import type { Db } from '../db/index';
import { findVisibleScan } from '../scans/scans.repository';
import { notFound } from '../domain-error';
import { evidenceJson, type EvidenceSerializers } from './evidence-json';
import type { TimelineRow } from './timeline/timeline-entry';
import { timelineActionPage, timelineRowsFrom, timelineTotals } from './timeline/timeline-reads.repository';
import { timelineSeqRange } from './timeline/timeline-windows.repository';

export function parseEvidenceTypes(types: string | undefined): Set<EvidenceType> {
  return new Set(types === undefined ? EVIDENCE_TYPES : (types.split(',') as EvidenceType[]));
}

/**
 * docs/contract/api.md#evidence: request count and total tokens always; the timeline, breakdown
 * and violations as asked, streamed (evidence-json.ts). Visibility is decided here, before the
 * first byte.
 */
export async function readEvidence(
  db: Db,
  userId: string,
  scanId: string,
  types: Set<EvidenceType>,
  serialize: EvidenceSerializers,
): Promise<Readable> {
  const scan = await findVisibleScan(db, scanId, userId);
  if (!scan) throw notFound('scan');
  const totals = await timelineTotals(db, scanId);
  return evidenceJson(
    db,
    {
      scanId,
      requestCount: totals.count,
      totalTokens: totals.tokens,
      tokenBreakdown: scan.token_breakdown,
      types,
    },
    serialize,
  );
}

/**
 * One page of a scan's timeline in order, each entry with its index
 * (docs/contract/api.md#evidence, an extension).
 * Without `action` the page is a keyset read on (timeline_id, seq) and `total` is arithmetic; with it,
 * the seq range bounds the scan and the count.
 */
export async function timelinePage(
  db: Db,
  userId: string,
  scanId: string,
  query: TimelinePageQuery,
): Promise<TimelinePage> {
  if (!(await findVisibleScan(db, scanId, userId))) throw notFound('scan');
  // Both were validated by the schema's date or date-time format, which parseDateOrDateTime reads.
  const since = query.since === undefined ? undefined : (parseDateOrDateTime(query.since) ?? undefined);
  const until = query.until === undefined ? undefined : (parseUntil(query.until) ?? undefined);
  const range = await timelineSeqRange(db, scanId, since, until);
  if (!range) return { total: 0, entries: [] };

  let total: number;
  let rows: TimelineRow[];
  if (query.action === undefined) {
    total = range.last - range.first + 1;
    rows =
      query.offset >= total
        ? []
        : await timelineRowsFrom(db, scanId, range.first + query.offset, range.last, query.limit);
  } else {
    ({ total, rows } = await timelineActionPage(db, scanId, range, query.action, query));
  }
  return {
    total,
    entries: rows.map((row) => ({
      index: Number(row.seq),
      timestamp: formatTimestamp(Number(row.timestamp)),
      action: row.action,
      tokens: Number(row.tokens),
    })),
  };
}
