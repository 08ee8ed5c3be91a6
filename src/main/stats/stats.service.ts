import type {
  StatBucket,
  TokenStats,
  TokenStatsBucket,
  TokenStatsQuery,
  ViolationStats,
  ViolationStatsQuery,
} from '../../shared/api/stats';
import { formatTimestamp } from '../../shared/time';
import type { Db } from '../db/database';
import { bigint } from '../db/sql-math';
import { matching, visibleTo } from '../scans/scans.repository';
import { toFilters } from '../scans/scans.service';

const BUCKET_MS: Record<StatBucket, number> = { hour: 3_600_000, day: 86_400_000 };

/**
 * Token sums, scan and violation counts per UTC hour or day over the caller's visible scans,
 * optionally split by tool or action (SPEC.md §6, "Aggregates"). Buckets without scans are absent.
 */
export async function tokenStats(db: Db, userId: string, query: TokenStatsQuery): Promise<TokenStats> {
  const width = BUCKET_MS[query.bucket];
  const groupBy = query.group_by;
  const rows = await db
    .selectFrom('scans')
    .where(visibleTo(userId))
    .where(matching(toFilters(query)))
    .select((eb) => [
      eb('scans.created_at', '-', eb('scans.created_at', '%', bigint(width))).as('start'),
      eb.fn.sum<number>('scans.tokens').as('tokens'),
      eb.fn.countAll<number>().as('scans'),
      eb.fn.sum<number>('scans.violation_count').as('violations'),
      (groupBy === undefined ? eb.val('') : eb.ref(`scans.${groupBy}`)).as('group_name'),
    ])
    .groupBy(groupBy === undefined ? ['start'] : ['start', `scans.${groupBy}`])
    .orderBy('start')
    .execute();

  const buckets = new Map<number, TokenStatsBucket>();
  for (const row of rows) {
    const start = Number(row.start);
    let bucket = buckets.get(start);
    if (!bucket) {
      bucket = {
        start: formatTimestamp(start),
        tokens: 0,
        scans: 0,
        violations: 0,
        ...(groupBy ? { groups: {} } : {}),
      };
      buckets.set(start, bucket);
    }
    bucket.tokens += Number(row.tokens);
    bucket.scans += Number(row.scans);
    bucket.violations += Number(row.violations);
    if (bucket.groups) bucket.groups[String(row.group_name)] = { tokens: Number(row.tokens), scans: Number(row.scans) };
  }
  return { bucket: query.bucket, buckets: [...buckets.values()] };
}

/**
 * Violation counts by severity and by rule over the caller's visible scans (the same visibility
 * and filters as GET /v1/scans), for the overview's charts.
 */
export async function violationStats(db: Db, userId: string, query: ViolationStatsQuery): Promise<ViolationStats> {
  const rows = await db
    .selectFrom('scans')
    .innerJoin('violations', 'violations.scan_id', 'scans.id')
    .where(visibleTo(userId))
    .where(matching(toFilters(query)))
    .select((eb) => ['violations.severity', 'violations.rule', eb.fn.countAll<number>().as('count')])
    .groupBy(['violations.severity', 'violations.rule'])
    .execute();

  const result: ViolationStats = { by_severity: { low: 0, medium: 0, high: 0, critical: 0 }, by_rule: {} };
  for (const row of rows) {
    const count = Number(row.count);
    result.by_severity[row.severity] += count;
    result.by_rule[row.rule] = (result.by_rule[row.rule] ?? 0) + count;
  }
  return result;
}
