import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ScanList } from '../../../../shared/api/scans';
import { apiGet } from '../../lib/api-client';
import { scanKeys } from './scans-api';
import { toScanListQuery, type ScansSearch } from './scans-search';

/** The page of scans a search shows: its key and how to fetch it. */
export function scansQuery(search: ScansSearch) {
  const query = toScanListQuery(search);
  return { queryKey: scanKeys.list(query), queryFn: () => apiGet<ScanList>('/v1/scans', query) };
}

/** One page of scans: the previous page stays on screen while the next loads, so paging never flashes. */
export function useScans(search: ScansSearch) {
  return useQuery({ ...scansQuery(search), placeholderData: keepPreviousData });
}
