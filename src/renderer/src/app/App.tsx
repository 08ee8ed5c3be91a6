import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { ServerError } from '../lib/api-client';
import { shareStructure } from '../lib/structural-sharing';
import { router } from './router';

const queryClient = new QueryClient({
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

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
