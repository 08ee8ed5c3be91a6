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
 * evidence summary, violation counts and first page of entries at once, and the chart's data as
 * soon as the summary says how long the timeline is (its buckets when long, else the whole of it,
 * as TimelineSection chooses). Never waits for them.
 */
export function startScanDetailRequests(client: QueryClient, scanId: string, search: ScanDetailSearch): void {
  void startQuery(client, scanQuery(scanId));
  void startQuery(client, violationSummaryQuery(scanId));
  void startQuery(client, timelinePageQuery(scanId, entriesAction(search.action), 0, zoomWindow(search)));
  void startQuery(client, evidenceSummaryQuery(scanId)).then((summary) => {
    if (!summary) return;
    const requests = summary.evidence.request_count;
    void (needsBuckets(requests)
      ? startQuery(client, timelineBucketsQuery(scanId))
      : startQuery(client, rawTimelineQuery(scanId, undefined)));
  });
}
