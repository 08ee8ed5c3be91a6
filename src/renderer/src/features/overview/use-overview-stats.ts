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

/** `origin`: `local` or a remote's name, or undefined for all of them together. */
export function useTokenStats(range: TimeRange, groupBy: StatGroup, origin: string | undefined) {
  const query: StatsQuery = {
    since: iso(range.since),
    until: iso(range.until),
    bucket: range.bucket,
    group_by: groupBy,
    ...(origin === undefined ? {} : { origin }),
  };
  return useQuery({
    queryKey: statsKeys.tokens(query),
    queryFn: () => apiGet<TokenStats>('/v1/stats/tokens', { ...query }),
    placeholderData: whileMovingOn<TokenStats>(query),
  });
}

export function useViolationStats(range: TimeRange, origin: string | undefined) {
  const query: StatsQuery = {
    since: iso(range.since),
    until: iso(range.until),
    ...(origin === undefined ? {} : { origin }),
  };
  return useQuery({
    queryKey: statsKeys.violations(query),
    queryFn: () => apiGet<ViolationStats>('/v1/stats/violations', { ...query }),
    placeholderData: whileMovingOn<ViolationStats>(query),
  });
}
