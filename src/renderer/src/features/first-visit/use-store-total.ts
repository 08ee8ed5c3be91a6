import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ScanList } from '../../../../shared/api/scans';
import { apiGet } from '../../lib/api-client';
import { useLive } from '../live/live-context';
import { scanKeys } from '../scans/scans-api';

const QUERY = { limit: 1, offset: 0 } as const;
const KEY = scanKeys.list(QUERY);

/**
 * How many scans this user can see in the whole workspace, whatever the page filters: 0 is a
 * first visit. Under the scans-list key, so that whatever refreshes the list refreshes it too;
 * and asked again when a scan is heard live while it is 0, so the first one ends the first visit.
 */
export function useStoreTotal(enabled = true): number | undefined {
  const queryClient = useQueryClient();
  const total = useQuery({
    queryKey: KEY,
    queryFn: () => apiGet<ScanList>('/v1/scans', QUERY),
    select: (list) => list.total,
    enabled,
  }).data;
  const heard = useLive().heard.length;
  useEffect(() => {
    if (heard > 0 && total === 0) void queryClient.invalidateQueries({ queryKey: KEY, exact: true });
  }, [heard, total, queryClient]);
  return enabled ? total : undefined;
}
