import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OrganizationList } from '../../../../shared/api/organizations';
import type { ScanList } from '../../../../shared/api/scans';
import { apiGet } from '../../lib/api-client';
import { toScanListQuery, type ScansSearch } from './scans-search';

/** One page of scans: the previous page stays on screen while the next loads, so paging never flashes. */
export function useScans(search: ScansSearch) {
  const query = toScanListQuery(search);
  return useQuery({
    queryKey: ['scans', 'list', query],
    queryFn: () => apiGet<ScanList>('/v1/scans', query),
    placeholderData: keepPreviousData,
  });
}

export function useOrganizations() {
  return useQuery({
    queryKey: ['scans', 'organizations'],
    queryFn: () => apiGet<OrganizationList>('/v1/organizations'),
    staleTime: 60_000,
  });
}
