import { QueryClient } from '@tanstack/react-query';
import { ServerError } from '../lib/api-client';
import { shareStructure } from '../lib/structural-sharing';

/** The viewer's one query cache: the pages read it, and the routes start filling it (router.tsx). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      structuralSharing: shareStructure,
      // A 4xx will not change by asking again; a dropped connection might.
      retry: (failures, error) =>
        !(error instanceof ServerError && error.status >= 400 && error.status < 500) && failures < 2,
    },
  },
});
