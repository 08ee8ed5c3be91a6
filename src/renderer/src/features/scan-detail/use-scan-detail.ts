import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { Evidence, TimelineBuckets, TimelinePage } from '../../../../shared/api/evidence';
import type { Scan } from '../../../../shared/api/scans';
import { apiGet } from '../../lib/api-client';
import {
  BUCKET_COUNT,
  needsBuckets,
  RAW_POINT_LIMIT,
  TIMELINE_PAGE_SIZE,
  windowRange,
  type TimeWindow,
} from './timeline-shaping';
import { scanKeys } from '../scans/scans-api';

const scanPath = (scanId: string): string => `/v1/scans/${encodeURIComponent(scanId)}`;

// Each request's key and how to fetch it, for the page's hooks and for the route that starts them
// beside the page's code (scan-detail-requests.ts).

export const scanQuery = (scanId: string) => ({
  queryKey: scanKeys.detail(scanId),
  queryFn: () => apiGet<Scan>(scanPath(scanId)),
});

export function useScan(scanId: string) {
  return useQuery(scanQuery(scanId));
}

/**
 * Counts and token breakdown, without the timeline and the violations: either may run to hundreds
 * of thousands, and each has its own paged requests.
 */
export const evidenceSummaryQuery = (scanId: string) => ({
  queryKey: scanKeys.evidenceSummary(scanId),
  queryFn: () => apiGet<Evidence>(`${scanPath(scanId)}/evidence`, { types: 'token_breakdown' }),
});

export function useEvidenceSummary(scanId: string) {
  return useQuery(evidenceSummaryQuery(scanId));
}

const timelinePath = (scanId: string): string => `${scanPath(scanId)}/evidence/timeline`;

export function timelinePageQuery(scanId: string, action: string | undefined, page: number, window?: TimeWindow) {
  const range = window ? windowRange(window) : undefined;
  return {
    queryKey: scanKeys.timelinePage(scanId, action ?? null, page, range?.since ?? null, range?.until ?? null),
    queryFn: () =>
      apiGet<TimelinePage>(timelinePath(scanId), {
        offset: page * TIMELINE_PAGE_SIZE,
        limit: TIMELINE_PAGE_SIZE,
        action,
        ...range,
      }),
    // A stored scan's timeline never changes.
    staleTime: Infinity,
  };
}

/**
 * The given pages of the entries list (filtered by exact action and to the chart's zoom window),
 * as page number → page once each arrives.
 */
export function useTimelinePages(
  scanId: string,
  action: string | undefined,
  window: TimeWindow | undefined,
  pages: readonly number[],
) {
  return useQueries({
    queries: pages.map((page) => timelinePageQuery(scanId, action, page, window)),
    combine: (results) => {
      const byPage = new Map<number, TimelinePage>();
      results.forEach((result, i) => {
        if (result.data) byPage.set(pages[i]!, result.data);
      });
      return { pages: byPage, error: results.find((result) => result.error)?.error ?? null };
    },
  });
}

/** One page of the unfiltered list: the one holding an entry the chart marks. */
export function useTimelinePage(scanId: string, page: number | undefined) {
  return useQuery({ ...timelinePageQuery(scanId, undefined, page ?? 0), enabled: page !== undefined });
}

/**
 * Raw entries for the chart: the whole timeline when it is small (no window), else the zoom
 * window's, at most RAW_POINT_LIMIT of them.
 */
export function rawTimelineQuery(scanId: string, window: TimeWindow | undefined) {
  const range = window ? windowRange(window) : undefined;
  return {
    queryKey: scanKeys.timelineRaw(scanId, range?.since ?? null, range?.until ?? null),
    queryFn: () => apiGet<TimelinePage>(timelinePath(scanId), { limit: RAW_POINT_LIMIT, ...range }),
    staleTime: Infinity,
  };
}

export function useRawTimeline(scanId: string, window: TimeWindow | undefined, enabled: boolean) {
  return useQuery({ ...rawTimelineQuery(scanId, window), enabled });
}

/** The whole timeline's buckets, which a long one is charted from. */
export const timelineBucketsQuery = (scanId: string) => ({
  queryKey: scanKeys.timelineBuckets(scanId, BUCKET_COUNT),
  queryFn: async () =>
    (await apiGet<TimelineBuckets>(`${scanPath(scanId)}/evidence/timeline/buckets`, { n: BUCKET_COUNT })).buckets,
  staleTime: Infinity,
});

export function useTimelineBuckets(scanId: string, requestCount: number | undefined) {
  return useQuery({
    ...timelineBucketsQuery(scanId),
    enabled: requestCount !== undefined && needsBuckets(requestCount),
  });
}

/**
 * Buckets of a zoom window of a long timeline, from the server's summaries: finer than the whole
 * timeline's buckets cut to the window. Cached per window (a zoom back is no second request);
 * while the next window loads, the last one stays drawn.
 */
export function useWindowBuckets(scanId: string, window: TimeWindow | undefined, enabled: boolean) {
  const range = window ? windowRange(window) : undefined;
  return useQuery({
    queryKey: scanKeys.windowBuckets(scanId, BUCKET_COUNT, range?.since ?? null, range?.until ?? null),
    queryFn: async () =>
      (
        await apiGet<TimelineBuckets>(`${scanPath(scanId)}/evidence/timeline/buckets`, {
          n: BUCKET_COUNT,
          ...range,
        })
      ).buckets,
    enabled: enabled && range !== undefined,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });
}
