import type { Readable } from 'node:stream';
import type { EvidenceType, TimelineBucket, TimelinePage, TimelinePageQuery } from '../../shared/api/evidence';
import { EVIDENCE_TYPES } from '../../shared/api/evidence';
import { formatTimestamp, parseDateOrDateTime } from '../../shared/time';
import type { Db, Executor } from '../db/database';
import { bucketIndex } from '../db/sql-math';
import { findVisibleScan, timelineTotals } from '../scans/scans.repository';
import { notFound } from '../server/api-error';
import { evidenceJson, type EvidenceSerializers } from './evidence-json';

export function parseEvidenceTypes(types: string | undefined): Set<EvidenceType> {
  return new Set(types === undefined ? EVIDENCE_TYPES : (types.split(',') as EvidenceType[]));
}

/**
 * SPEC.md §8: request count and total tokens always; the timeline, breakdown and violations as
 * asked, streamed (evidence-json.ts). Visibility is decided here, before the first byte.
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

/**
 * The seq range [first, last] of the entries with since <= timestamp < until, or null when none.
 * Seq follows timestamp order (submits sort, imports refuse disorder), so the matching entries are
 * one contiguous run. Its ends come from min/max lookups on the (scan_id, timestamp) index plus
 * the entries tied on the boundary timestamp, never from a walk over the range.
 */
async function seqRange(
  db: Executor,
  scanId: string,
  since: number | undefined,
  until: number | undefined,
): Promise<{ first: number; last: number } | null> {
  const entries = db.selectFrom('timeline_entries').where('timeline_entries.scan_id', '=', scanId);
  const first = await entries
    .select((eb) => eb.fn.min<number | null>('seq').as('seq'))
    // `>= since` beside `<= boundary` (not just `= boundary`) steers SQLite to the timestamp index.
    .$if(since !== undefined, (qb) =>
      qb.where('timestamp', '>=', since!).where('timestamp', '<=', (eb) =>
        eb
          .selectFrom('timeline_entries as bound')
          .select((inner) => inner.fn.min<number>('bound.timestamp').as('t'))
          .where('bound.scan_id', '=', scanId)
          .where('bound.timestamp', '>=', since!),
      ),
    )
    .executeTakeFirst();
  const last = await entries
    .select((eb) => eb.fn.max<number | null>('seq').as('seq'))
    .$if(until !== undefined, (qb) =>
      qb.where('timestamp', '<', until!).where('timestamp', '>=', (eb) =>
        eb
          .selectFrom('timeline_entries as bound')
          .select((inner) => inner.fn.max<number>('bound.timestamp').as('t'))
          .where('bound.scan_id', '=', scanId)
          .where('bound.timestamp', '<', until!),
      ),
    )
    .executeTakeFirst();
  if (first?.seq === null || first?.seq === undefined || last?.seq === null || last?.seq === undefined) return null;
  const range = { first: Number(first.seq), last: Number(last.seq) };
  return range.first <= range.last ? range : null;
}

/**
 * One page of a scan's timeline in order, each entry with its index (SPEC.md §8, extension).
 * Without `action` the page is a keyset read on (scan_id, seq) and `total` is arithmetic; with it,
 * the seq range bounds the scan and the count.
 */
export async function timelinePage(
  db: Db,
  userId: string,
  scanId: string,
  query: TimelinePageQuery,
): Promise<TimelinePage> {
  if (!(await findVisibleScan(db, scanId, userId))) throw notFound('scan');
  // Both were validated by the schema's date-or-date-time format.
  const since = query.since === undefined ? undefined : (parseDateOrDateTime(query.since) ?? undefined);
  const until = query.until === undefined ? undefined : (parseDateOrDateTime(query.until) ?? undefined);
  const range = await seqRange(db, scanId, since, until);
  if (!range) return { total: 0, entries: [] };

  let total: number;
  let rows: { seq: number; timestamp: number; action: string; tokens: number }[];
  if (query.action === undefined) {
    total = range.last - range.first + 1;
    // One lower bound only: given two, SQLite may seek on the smaller and walk up to the offset.
    rows =
      query.offset >= total
        ? []
        : await db
            .selectFrom('timeline_entries')
            .select(['seq', 'timestamp', 'action', 'tokens'])
            .where('scan_id', '=', scanId)
            .where('seq', '>=', range.first + query.offset)
            .where('seq', '<=', range.last)
            .orderBy('seq')
            .limit(query.limit)
            .execute();
  } else {
    const matching = db
      .selectFrom('timeline_entries')
      .where('scan_id', '=', scanId)
      .where('seq', '>=', range.first)
      .where('seq', '<=', range.last)
      .where('action', '=', query.action);
    const counted = await matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    total = Number(counted.n);
    rows =
      query.offset >= total
        ? []
        : await matching
            .select(['seq', 'timestamp', 'action', 'tokens'])
            .orderBy('seq')
            .limit(query.limit)
            .offset(query.offset)
            .execute();
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
