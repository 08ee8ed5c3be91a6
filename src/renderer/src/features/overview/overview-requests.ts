import type { QueryClient } from '@tanstack/react-query';
import { startQuery } from '../../lib/start-query';
import { toolsQuery } from '../tools/tools-api';
import { selectedRange, type OverviewSearch } from './overview-search';
import { toTimeRange } from './time-range';
import { actionTotalsQuery, tokenStatsQuery, violationStatsQuery } from './use-overview-stats';

/**
 * Starts the requests the overview's charts cannot be drawn without, for a visit that began at
 * `now`, under the keys the charts ask for (OverviewPage computes the same range from the same
 * search and the same `now`). Never waits for them.
 */
export function startOverviewRequests(client: QueryClient, search: OverviewSearch, now: number): void {
  const range = toTimeRange(selectedRange(search), now);
  void startQuery(client, tokenStatsQuery(range, 'tool', search.origin));
  void startQuery(client, actionTotalsQuery(range, search.origin));
  void startQuery(client, violationStatsQuery(range, search.origin));
  // The tools decide the token charts' colours, which wait for them.
  void startQuery(client, toolsQuery);
}
