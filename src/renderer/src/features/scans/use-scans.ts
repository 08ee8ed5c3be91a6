import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OrganizationList } from '../../../../shared/api/organizations';
import type { ScanList } from '../../../../shared/api/scans';
import type { TokenStats } from '../../../../shared/api/stats';
import { apiGet } from '../../lib/api-client';
import { toScanListQuery, toolNames, type ScansSearch } from './scans-search';
import { DAY_MS } from '../../../../shared/time';

const TOOL_WINDOW_MS = 90 * DAY_MS;

/** One page of scans: the previous page stays on screen while the next loads, so paging never flashes. */
export function useScans(search: ScansSearch) {
  const query = toScanListQuery(search);
  return useQuery({
    queryKey: ['scans', 'list', query],
    queryFn: () => apiGet<ScanList>('/v1/scans', query),
    placeholderData: keepPreviousData,
  });
}

/** Tool names for the filter's suggestions: whatever ran in the last 90 days. */
export function useToolNames() {
  return useQuery({
    queryKey: ['stats', 'tokens', 'tool-names'],
    queryFn: async () => {
      const since = new Date(Date.now() - TOOL_WINDOW_MS).toISOString().slice(0, 10);
      const stats = await apiGet<TokenStats>('/v1/stats/tokens', { group_by: 'tool', bucket: 'day', since });
      return toolNames(stats.buckets);
    },
    staleTime: 5 * 60_000,
  });
}

export function useOrganizations() {
  return useQuery({
    queryKey: ['scans', 'organizations'],
    queryFn: () => apiGet<OrganizationList>('/v1/organizations'),
    staleTime: 60_000,
  });
}
