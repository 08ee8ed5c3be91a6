import { sql } from 'kysely';
import type {
  StatBucket,
  TokenStats,
  TokenStatsBucket,
  TokenStatsQuery,
  ViolationStats,
  ViolationStatsQuery,
} from '../../shared/api/stats';
import { keyedRecord } from '../../shared/keyed-record';
import { formatTimestamp } from '../../shared/time';
import { bigint, type Db, dialectOf, doubleSum } from '../db/index';
import {
  matching,
  rollupOrigin,
  partRows,
  type RollupPart,
  timeColumn,
  visibleDayRows,
  visibleHourRows,
  visibleInRollup,
  visibleTo,
  type ScanFilters,
} from '../scans/scans.repository';
import { resolveFilters } from '../scans/scans.service';
import { DAY_MS, HOUR_MS } from '../../shared/time';
import { splitByHours, type DaySplit, type Span } from '../scans/day-split';
import { byDays } from '../scans/whole-days.repository';

/** Token sums past 2^53 − 1 are answered as 2^53 − 1: JSON integers stay safe (docs/contract/api.md#basics). */
const saturated = (tokens: number): number => Math.min(tokens, Number.MAX_SAFE_INTEGER);

const BUCKET_MS: Record<StatBucket, number> = { hour: HOUR_MS, day: DAY_MS };

interface BucketRow {
  start: number;
  tokens: number;
  scans: number;
  violations: number;
  group_name: string;
}

/** Token stats rows straight from the scans of a span. */
async function scanBucketRows(
  db: Db,
  userId: string,
  filters: ScanFilters,
  width: number,
  groupBy: TokenStatsQuery['group_by'],
): Promise<BucketRow[]> {
  const rows = await db
    .selectFrom('scans')
    .where(visibleTo(userId))
    .where(matching(filters))
    .select((eb) => [
      eb('scans.created_at', '-', eb('scans.created_at', '%', bigint(width))).as('start'),
      doubleSum('scans.tokens').as('tokens'),
      eb.fn.countAll<number>().as('scans'),
      eb.fn.sum<number>('scans.violation_count').as('violations'),
      (groupBy === undefined ? eb.val('') : eb.ref(`scans.${groupBy}`)).as('group_name'),
    ])
    .groupBy(groupBy === undefined ? ['start'] : ['start', `scans.${groupBy}`])
    .execute();
  return rows.map((row) => ({ ...row, group_name: String(row.group_name) }));
}

/**
 * Bucket rows from rollup parts that split the caller's view (visibleDayRows, visibleHourRows),
 * each part filtered and grouped on its own, so that each reads by its keys, in one statement; a
 * bucket and group may come in a row from each part (tokenStats adds them up). In its own grain a
 * part groups in its key's order (day or hour, then tool), with no sort: SQLite took 20 ms to sort
 * the union of 7 days of hours (10,600 rows) that its parts grouped in 5. Wider buckets group by
 * the rounded start, by its alias (PostgreSQL takes an expression with a parameter in GROUP BY as
 * another one).
 */
async function rollupPartRows(
  db: Db,
  parts: readonly RollupPart[],
  filters: ScanFilters,
  span: Span,
  width: number,
  groupBy: TokenStatsQuery['group_by'],
): Promise<BucketRow[]> {
  const selects = parts.map((part) => {
    const column = (name: string) => sql.ref(`${part.table}.${name}`);
    const grain = timeColumn(part.table);
    const at = column(grain);
    const group = groupBy === undefined ? undefined : column(groupBy);
    const ownGrain = width === (grain === 'hour' ? HOUR_MS : DAY_MS);
    return partRows(db, part, filters, span)
      .select([
        (ownGrain ? sql<number>`${at}` : sql<number>`${at} - ${at} % ${bigint(width)}`).as('start'),
        (group === undefined ? sql<string>`''` : sql<string>`${group}`).as('group_name'),
        doubleSum(`${part.table}.tokens`).as('tokens'),
        sql<number>`sum(${column('scans')})`.as('scans'),
        sql<number>`sum(${column('violations')})`.as('violations'),
      ])
      .groupBy(ownGrain ? [at, ...(group === undefined ? [] : [group])] : ['start', 'group_name']);
  });
  const rows = await selects.reduce((union, part) => union.unionAll(part)).execute();
  return rows.map((row) => ({ ...row, group_name: String(row.group_name) }));
}

/** Day-bucket rows for whole days, from the day rollups. */
const dayRollupRows = (
  db: Db,
  userId: string,
  filters: ScanFilters,
  days: Span,
  groupBy: TokenStatsQuery['group_by'],
): Promise<BucketRow[]> => rollupPartRows(db, visibleDayRows(userId, dialectOf(db)), filters, days, DAY_MS, groupBy);

/**
 * Bucket rows for whole hours, from the hour rollups: each hour counted in the bucket of `width`
 * that holds it (its own hour, or the day of a partial day).
 */
const hourRollupRows = (
  db: Db,
  userId: string,
  filters: ScanFilters,
  hours: Span,
  width: number,
  groupBy: TokenStatsQuery['group_by'],
): Promise<BucketRow[]> => rollupPartRows(db, visibleHourRows(userId, dialectOf(db)), filters, hours, width, groupBy);

/**
 * Token sums, scan and violation counts per UTC hour or day over the caller's visible scans,
 * optionally split by tool or action, of one origin or all (docs/contract/api.md#aggregates). Buckets without scans are absent.
 * Whole days come from the day rollups, whole hours from the hour rollups, and only the minutes at
 * a range's ends from the scans.
 */
export async function tokenStats(db: Db, userId: string, query: TokenStatsQuery): Promise<TokenStats> {
  const width = BUCKET_MS[query.bucket];
  const groupBy = query.group_by;
  const filters = await resolveFilters(db, userId, query);
  const read = ({ days, edges }: DaySplit) =>
    Promise.all([
      ...(days ? [dayRollupRows(db, userId, filters, days, groupBy)] : []),
      ...edges.flatMap((edge) => {
        const { hours, edges: ends } = splitByHours(edge);
        return [
          ...(hours ? [hourRollupRows(db, userId, filters, hours, width, groupBy)] : []),
          ...ends.map((end) => scanBucketRows(db, userId, { ...filters, ...end }, width, groupBy)),
        ];
      }),
    ]);
  const parts = query.bucket === 'day' ? await byDays(db, filters, read) : await read({ days: null, edges: [filters] });

  const buckets = new Map<number, TokenStatsBucket>();
  for (const row of parts.flat()) {
    const start = Number(row.start);
    let bucket = buckets.get(start);
    if (!bucket) {
      bucket = {
        start: formatTimestamp(start),
        tokens: 0,
        scans: 0,
        violations: 0,
        ...(groupBy ? { groups: keyedRecord<NonNullable<TokenStatsBucket['groups']>[string]>() } : {}),
      };
      buckets.set(start, bucket);
    }
    bucket.tokens = saturated(bucket.tokens + Number(row.tokens));
    bucket.scans += Number(row.scans);
    bucket.violations += Number(row.violations);
    // A bucket's group may come in several rows: a row from each rollup part, a partial day's
    // whole hours and its minutes.
    if (bucket.groups) {
      const group = (bucket.groups[row.group_name] ??= { tokens: 0, scans: 0 });
      group.tokens = saturated(group.tokens + Number(row.tokens));
      group.scans += Number(row.scans);
    }
  }
  const ordered = [...buckets.entries()].sort(([a], [b]) => a - b).map(([, bucket]) => bucket);
  return { bucket: query.bucket, buckets: ordered };
}

/**
 * Violation counts by severity and by rule over the caller's visible scans (the same visibility
 * and filters as GET /v1/scans), for the overview's charts. Whole days come from the
 * violation_days rollup, partial days from the violations themselves.
 */
export async function violationStats(db: Db, userId: string, query: ViolationStatsQuery): Promise<ViolationStats> {
  const filters = await resolveFilters(db, userId, query);
  const parts = await byDays(db, filters, ({ days, edges }) =>
    Promise.all([
      ...(days ? [violationDayRows(db, userId, filters, days)] : []),
      ...edges.map((edge) =>
        db
          .selectFrom('scans')
          .innerJoin('violations', 'violations.scan_id', 'scans.id')
          .where(visibleTo(userId))
          .where(matching({ ...filters, ...edge }))
          .select((eb) => ['violations.severity', 'violations.rule', eb.fn.countAll<number>().as('count')])
          .groupBy(['violations.severity', 'violations.rule'])
          .execute(),
      ),
    ]),
  );

  const bySeverity: ViolationStats['by_severity'] = { low: 0, medium: 0, high: 0, critical: 0 };
  const byRule = new Map<string, number>();
  for (const row of parts.flat()) {
    const count = Number(row.count);
    bySeverity[row.severity] += count;
    byRule.set(row.rule, (byRule.get(row.rule) ?? 0) + count);
  }
  // Rules in name order: the rows come in whatever order each dialect groups them.
  const rules = [...byRule].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const by_rule = keyedRecord<number>();
  for (const [rule, count] of rules) by_rule[rule] = count;
  return { by_severity: bySeverity, by_rule };
}

async function violationDayRows(db: Db, userId: string, filters: ScanFilters, days: Span) {
  let query = db.selectFrom('violation_days').where(visibleInRollup('violation_days', userId));
  if (filters.organization_id !== undefined) {
    query = query.where('violation_days.organization_key', '=', filters.organization_id);
  }
  for (const condition of rollupOrigin('violation_days', filters.origin_key)) query = query.where(condition);
  if (days.since !== undefined) query = query.where('violation_days.day', '>=', days.since);
  if (days.until !== undefined) query = query.where('violation_days.day', '<', days.until);
  return query
    .select((eb) => [
      'violation_days.severity',
      'violation_days.rule',
      eb.fn.sum<number>('violation_days.violations').as('count'),
    ])
    .groupBy(['violation_days.severity', 'violation_days.rule'])
    .execute();
}
