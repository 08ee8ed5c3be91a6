import { useQuery } from '@tanstack/react-query';
import type { StatGroup, TokenStats, ViolationStats } from '../../../../shared/api/stats';
import { apiGet } from '../../lib/api-client';
import type { TimeRange } from './time-range';

const iso = (ms: number): string => new Date(ms).toISOString();

export function useTokenStats(range: TimeRange, groupBy: StatGroup) {
  const query = { since: iso(range.since), until: iso(range.until), bucket: range.bucket, group_by: groupBy };
  return useQuery({
    queryKey: ['stats', 'tokens', query],
    queryFn: () => apiGet<TokenStats>('/v1/stats/tokens', query),
  });
}

export function useViolationStats(range: TimeRange) {
  const query = { since: iso(range.since), until: iso(range.until) };
  return useQuery({
    queryKey: ['stats', 'violations', query],
    queryFn: () => apiGet<ViolationStats>('/v1/stats/violations', query),
  });
}
