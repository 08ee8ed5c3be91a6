import { useQueryClient, type Query } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { NetworkError } from './network-error';

/** How often, while the server is gone, the queries that found it gone ask again by themselves. */
export const RETRY_UNREACHABLE_MS = 5_000;

// Only queries a view still shows count: one left behind by a page since closed keeps its error
// in the cache until it is collected, and nothing would ever ask it again.
export const isUnreachable = (query: Query): boolean =>
  query.state.error instanceof NetworkError && query.getObserversCount() > 0;

/**
 * The server as the page's queries last found it: the NetworkError of one that got no answer, or
 * undefined. While it is gone they are asked again every RETRY_UNREACHABLE_MS (a stopped server
 * makes the browser neither offline nor online, so TanStack Query's reconnect never fires).
 */
export function useUnreachableServer(): { error: NetworkError | undefined; retry: () => void } {
  const client = useQueryClient();
  const cache = client.getQueryCache();
  const error = useSyncExternalStore(
    (onChange) => cache.subscribe(onChange),
    () => cache.getAll().find(isUnreachable)?.state.error as NetworkError | undefined,
  );
  const retry = useCallback(() => void client.refetchQueries({ predicate: isUnreachable }), [client]);
  useEffect(() => {
    if (error === undefined) return undefined;
    const timer = setInterval(retry, RETRY_UNREACHABLE_MS);
    return () => clearInterval(timer);
  }, [error, retry]);
  return { error, retry };
}
