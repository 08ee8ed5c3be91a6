import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Starts a query unless the cache holds it, for a route that asks before its page is drawn; the
 * answer, or undefined when it fails: the outcome is the page's own query's to show.
 */
export function startQuery<T, K extends QueryKey>(
  client: QueryClient,
  options: EnsureQueryDataOptions<T, Error, T, K>,
): Promise<T | undefined> {
  return client.ensureQueryData(options).catch(() => undefined);
}
