import type { Evidence, EvidenceType, TimelineBucket } from '../../shared/api/evidence';
import { EVIDENCE_TYPES } from '../../shared/api/evidence';
import type { TokenBreakdown } from '../../shared/api/scans';
import { formatTimestamp } from '../../shared/time';
import type { Db } from '../db/database';
import { bucketIndex } from '../db/sql-math';
import { toViolation } from '../scans/scan-mapping';
import { findTimeline, findViolations, findVisibleScan, timelineTotals } from '../scans/scans.repository';
import { notFound } from '../server/api-error';

export function parseEvidenceTypes(types: string | undefined): Set<EvidenceType> {
  return new Set(types === undefined ? EVIDENCE_TYPES : (types.split(',') as EvidenceType[]));
}

/** SPEC.md §8: request count and total tokens always; the timeline, breakdown and violations as asked. */
export async function readEvidence(
  db: Db,
  userId: string,
  scanId: string,
  types: Set<EvidenceType>,
): Promise<Evidence> {
  const scan = await findVisibleScan(db, scanId, userId);
  if (!scan) throw notFound('scan');
  const totals = await timelineTotals(db, scanId);
  const evidence: Evidence['evidence'] = { request_count: totals.count, total_tokens: totals.tokens };
  if (types.has('timeline')) {
    evidence.timeline = (await findTimeline(db, scanId)).map((entry) => ({
      timestamp: formatTimestamp(entry.timestamp),
      action: entry.action,
      tokens: entry.tokens,
    }));
  }
  if (types.has('token_breakdown')) evidence.token_breakdown = JSON.parse(scan.token_breakdown) as TokenBreakdown;
  if (types.has('violations')) evidence.violations = (await findViolations(db, scanId)).map(toViolation);
  return { scan_id: scanId, evidence };
}

/**
 * At most `n` equal-time buckets over a scan's timeline, computed in SQL, so that a timeline of a
 * million entries can be charted without being sent. Empty buckets are left out.
 */
export async function timelineBuckets(db: Db, userId: string, scanId: string, n: number): Promise<TimelineBucket[]> {
  if (!(await findVisibleScan(db, scanId, userId))) throw notFound('scan');
  const bounds = await db
    .selectFrom('timeline_entries')
    .select((eb) => [eb.fn.min('timestamp').as('first'), eb.fn.max('timestamp').as('last')])
    .where('scan_id', '=', scanId)
    .executeTakeFirst();
  if (bounds?.first === null || bounds?.first === undefined || bounds.last === null) return [];
  const first = Number(bounds.first);
  const width = Math.max(1, Math.ceil((Number(bounds.last) - first + 1) / n));

  const entries = await db
    .selectFrom('timeline_entries')
    .select((eb) => [
      bucketIndex(eb.ref('timestamp'), first, width).as('bucket'),
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('tokens').as('tokens'),
      eb.fn.min<number>('tokens').as('min_tokens'),
      eb.fn.max<number>('tokens').as('max_tokens'),
    ])
    .where('scan_id', '=', scanId)
    .groupBy('bucket')
    .orderBy('bucket')
    .execute();

  const violations = await db
    .selectFrom('violations')
    .innerJoin('timeline_entries', (join) =>
      join
        .onRef('timeline_entries.scan_id', '=', 'violations.scan_id')
        .onRef('timeline_entries.seq', '=', 'violations.timeline_index'),
    )
    .select((eb) => [
      bucketIndex(eb.ref('timeline_entries.timestamp'), first, width).as('bucket'),
      eb.fn.countAll<number>().as('count'),
    ])
    .where('violations.scan_id', '=', scanId)
    .groupBy('bucket')
    .execute();
  const violationsByBucket = new Map(violations.map((row) => [Number(row.bucket), Number(row.count)]));

  return entries.map((row) => {
    const start = first + Number(row.bucket) * width;
    return {
      start: formatTimestamp(start),
      end: formatTimestamp(start + width),
      count: Number(row.count),
      tokens: Number(row.tokens),
      min_tokens: Number(row.min_tokens),
      max_tokens: Number(row.max_tokens),
      violations: violationsByBucket.get(Number(row.bucket)) ?? 0,
    };
  });
}
