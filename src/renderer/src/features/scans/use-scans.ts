import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ScanList } from '../../../../shared/api/scans';
import { apiGet } from '../../lib/api-client';
import { scanKeys } from './scans-api';
import { toScanListQuery, type ScansSearch } from './scans-search';

/** One page of scans: the previous page stays on screen while the next loads, so paging never flashes. */
export function useScans(search: ScansSearch) {
  const query = toScanListQuery(search);
  return useQuery({
    queryKey: scanKeys.list(query),
    queryFn: () => apiGet<ScanList>('/v1/scans', query),
    placeholderData: keepPreviousData,
  });
}
