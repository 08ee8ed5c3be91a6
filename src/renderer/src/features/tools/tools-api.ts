import { useQuery } from '@tanstack/react-query';
import type { ToolList } from '../../../../shared/api/tools';
import { apiGet } from '../../lib/api-client';

export const toolKeys = {
  // Under `stats`: the live feed refreshes that family when scans arrive, and a new scan may bring a new tool.
  list: ['stats', 'tools'] as const,
};

/** Every tool of the scans the user can see, with counts: a short list whatever the store's size. */
export const toolsQuery = {
  queryKey: toolKeys.list,
  queryFn: () => apiGet<ToolList>('/v1/tools'),
  staleTime: 60_000,
} as const;

export const useTools = () => useQuery(toolsQuery);
