import { useQuery, type Query } from '@tanstack/react-query';
import type { StatGroup, TokenStats, ViolationStats } from '../../../../shared/api/stats';
import { apiGet } from '../../lib/api-client';
import { sameRangeMovedOn, type StatsQuery } from './live-range';
import type { TimeRange } from './time-range';
import { statsKeys } from './stats-api';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * While the same range moves on (live updates push its end), the charts keep the numbers they
 * show until the new ones arrive; another range starts from a loading state as before.
 */
function whileMovingOn<T>(query: StatsQuery) {
  return (previous: T | undefined, previousQuery: Query<T, Error, T, readonly unknown[]> | undefined) =>
    previousQuery && sameRangeMovedOn(previousQuery.queryKey[2] as StatsQuery, query) ? previous : undefined;
}

/**
 * Tokens of a range grouped by `groupBy`: its key and how to fetch it, for the charts and for the
 * route that starts it before the page's code has arrived. `origin`: `local` or a remote's name,
 * or undefined for all of them together. A chart of totals over the range (the actions) asks in
 * day buckets whatever the range's: the server sums whole days from its day rollups, where hours
 * of many actions cost it a sort (at 10,000,000 scans, 7 days of hours 40 ms against a few).
 */
export function tokenStatsQuery(
  range: TimeRange,
  groupBy: StatGroup,
  origin: string | undefined,
  bucket: TimeRange['bucket'] = range.bucket,
) {
  const query: StatsQuery = {
    since: iso(range.since),
    until: iso(range.until),
    bucket,
    group_by: groupBy,
    ...(origin === undefined ? {} : { origin }),
  };
  return { queryKey: statsKeys.tokens(query), queryFn: () => apiGet<TokenStats>('/v1/stats/tokens', { ...query }) };
}

/** Violations of a range by severity and rule (see tokenStatsQuery). */
export function violationStatsQuery(range: TimeRange, origin: string | undefined) {
  const query: StatsQuery = {
    since: iso(range.since),
    until: iso(range.until),
    ...(origin === undefined ? {} : { origin }),
  };
  return {
    queryKey: statsKeys.violations(query),
    queryFn: () => apiGet<ViolationStats>('/v1/stats/violations', { ...query }),
  };
}

/** The query of the chart of tokens by action, which draws only the range's totals. */
export const actionTotalsQuery = (range: TimeRange, origin: string | undefined) =>
  tokenStatsQuery(range, 'action', origin, 'day');

export function useTokenStats(options: ReturnType<typeof tokenStatsQuery>) {
  return useQuery({ ...options, placeholderData: whileMovingOn<TokenStats>(options.queryKey[2]) });
}

export function useViolationStats(range: TimeRange, origin: string | undefined) {
  const options = violationStatsQuery(range, origin);
  return useQuery({ ...options, placeholderData: whileMovingOn<ViolationStats>(options.queryKey[2]) });
}
