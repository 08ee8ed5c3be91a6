import { SEVERITIES } from '../../../../shared/api/scans';
import type { TokenStatsBucket, ViolationStats } from '../../../../shared/api/stats';
import { bucketWidth, type TimeRange } from './time-range';

/** A named value for bar charts. */
export interface Datum {
  name: string;
  value: number;
}

/** One line/area of a time chart: `key` is a safe data key (names may contain dots). */
export interface Series {
  key: string;
  label: string;
}

export type TimeRow = { start: number } & Record<string, number>;

/** Every bucket start of the range, so empty buckets chart as zero instead of being skipped. */
export function bucketStarts(range: TimeRange): number[] {
  const width = bucketWidth(range.bucket);
  const starts: number[] = [];
  for (let start = Math.floor(range.since / width) * width; start < range.until; start += width) starts.push(start);
  return starts;
}

/** Sums each group's tokens over all buckets, largest first (ties by name). */
export function groupTotals(buckets: readonly TokenStatsBucket[]): Datum[] {
  const totals = new Map<string, number>();
  for (const bucket of buckets) {
    for (const [name, group] of Object.entries(bucket.groups ?? {})) {
      totals.set(name, (totals.get(name) ?? 0) + group.tokens);
    }
  }
  return [...totals]
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
}

export const OTHER_LABEL = 'other';

/**
 * Tokens per bucket stacked by group: the `maxSeries - 1` largest groups by name, the rest summed
 * as "other", so the chart stays readable with many tools.
 */
export function stackedTokens(
  buckets: readonly TokenStatsBucket[],
  range: TimeRange,
  maxSeries = 6,
): { rows: TimeRow[]; series: Series[] } {
  const totals = groupTotals(buckets);
  const kept = totals.length <= maxSeries ? totals : totals.slice(0, maxSeries - 1);
  const series: Series[] = kept.map((group, index) => ({ key: `s${index}`, label: group.name }));
  const keyOf = new Map(series.map((s) => [s.label, s.key]));
  const hasOther = kept.length < totals.length;
  if (hasOther) series.push({ key: 'other', label: OTHER_LABEL });

  const byStart = new Map(buckets.map((bucket) => [Date.parse(bucket.start), bucket]));
  const rows = bucketStarts(range).map((start) => {
    const row: TimeRow = { start };
    for (const s of series) row[s.key] = 0;
    for (const [name, group] of Object.entries(byStart.get(start)?.groups ?? {})) {
      const key = keyOf.get(name) ?? 'other';
      row[key] = (row[key] ?? 0) + group.tokens;
    }
    return row;
  });
  return { rows, series };
}

/** Scans and violations per bucket, zero where there were none. */
export interface ActivityRow extends TimeRow {
  scans: number;
  violations: number;
}

export function scansAndViolations(buckets: readonly TokenStatsBucket[], range: TimeRange): ActivityRow[] {
  const byStart = new Map(buckets.map((bucket) => [Date.parse(bucket.start), bucket]));
  return bucketStarts(range).map((start) => {
    const bucket = byStart.get(start);
    return { start, scans: bucket?.scans ?? 0, violations: bucket?.violations ?? 0 };
  });
}

export function totals(buckets: readonly TokenStatsBucket[]): { tokens: number; scans: number; violations: number } {
  return buckets.reduce(
    (sum, b) => ({
      tokens: sum.tokens + b.tokens,
      scans: sum.scans + b.scans,
      violations: sum.violations + b.violations,
    }),
    { tokens: 0, scans: 0, violations: 0 },
  );
}

export function severityData(stats: ViolationStats): Datum[] {
  return SEVERITIES.map((name) => ({ name, value: stats.by_severity[name] }));
}

export function ruleData(stats: ViolationStats): Datum[] {
  return Object.entries(stats.by_rule)
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
}
