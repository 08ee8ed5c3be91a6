import type { QueryClient } from '@tanstack/react-query';
import { startQuery } from '../../lib/start-query';
import { entriesAction, zoomWindow, type ScanDetailSearch } from './detail-search';
import { needsBuckets } from './timeline-shaping';
import {
  evidenceSummaryQuery,
  rawTimelineQuery,
  scanQuery,
  timelineBucketsQuery,
  timelinePageQuery,
} from './use-scan-detail';
import { violationSummaryQuery } from './use-scan-violations';

/**
 * Starts the requests a scan's page draws first, under the keys its hooks ask for: the scan, its
 * evidence summary, violation counts and first page of entries at once, and the chart's data: a
 * long timeline's buckets at once too, a short one's entries once the summary says it is short (as
 * TimelineSection chooses). Never waits for them.
 */
export function startScanDetailRequests(client: QueryClient, scanId: string, search: ScanDetailSearch): void {
  void startQuery(client, scanQuery(scanId));
  void startQuery(client, violationSummaryQuery(scanId));
  void startQuery(client, timelinePageQuery(scanId, entriesAction(search.action), 0, zoomWindow(search)));
  const summary = startQuery(client, evidenceSummaryQuery(scanId));
  // The buckets take the server longest of these, and the chart of a long timeline waits for them:
  // asked last, beside the rest rather than once the summary has answered. A short timeline's go
  // unused; the server reads them from its few entries, about what their raw request costs.
  void startQuery(client, timelineBucketsQuery(scanId));
  void summary.then((answer) => {
    if (answer && !needsBuckets(answer.evidence.request_count)) {
      void startQuery(client, rawTimelineQuery(scanId, undefined));
    }
  });
}
