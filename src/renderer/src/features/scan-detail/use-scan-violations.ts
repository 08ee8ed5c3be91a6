import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ViolationEntries, ViolationPage, ViolationSummary } from '../../../../shared/api/scan-violations';
import { apiGet } from '../../lib/api-client';
import type { ViolationGroup } from './violation-groups';
import { ENTRY_CHUNK, mergeEntryCounts, VIOLATION_PAGE_SIZE } from './violation-paging';
import { scanKeys } from '../scans/scans-api';

const violationsPath = (scanId: string): string => `/v1/scans/${encodeURIComponent(scanId)}/violations`;

/** Counts by severity and rule, without the violations themselves. */
export const violationSummaryQuery = (scanId: string) => ({
  queryKey: scanKeys.violationSummary(scanId),
  queryFn: () => apiGet<ViolationSummary>(`${violationsPath(scanId)}/summary`),
});

export function useViolationSummary(scanId: string) {
  return useQuery(violationSummaryQuery(scanId));
}

/** The given pages of one rule group's violations, as page number → page once each arrives. */
export function useViolationPages(
  scanId: string,
  group: Pick<ViolationGroup, 'rule' | 'severity'>,
  pages: readonly number[],
) {
  return useQueries({
    queries: pages.map((page) => ({
      queryKey: scanKeys.violationPage(scanId, page, group.rule, group.severity),
      queryFn: () =>
        apiGet<ViolationPage>(violationsPath(scanId), {
          offset: page * VIOLATION_PAGE_SIZE,
          limit: VIOLATION_PAGE_SIZE,
          rule: group.rule,
          severity: group.severity,
        }),
    })),
    combine: (results) => {
      const byPage = new Map<number, ViolationPage>();
      results.forEach((result, i) => {
        if (result.data) byPage.set(pages[i]!, result.data);
      });
      return { pages: byPage, error: results.find((result) => result.error)?.error ?? null };
    },
  });
}

// Module-level, so that TanStack Query reruns it only when a chunk's result changes: the map
// keeps its identity between renders, and the chart's points are not rebuilt for nothing.
const combineEntryCounts = (results: UseQueryResult<ViolationEntries>[]): Map<number, number> =>
  mergeEntryCounts(results.map((result) => result.data));

/** Timeline index → violations pointing at it, over the given chunks of indexes (none asked when disabled). */
export function useEntryViolations(scanId: string, chunks: readonly number[], enabled: boolean) {
  return useQueries({
    queries: (enabled ? chunks : []).map((chunk) => ({
      queryKey: scanKeys.violationEntries(scanId, chunk),
      queryFn: () =>
        apiGet<ViolationEntries>(`${violationsPath(scanId)}/entries`, {
          offset: chunk * ENTRY_CHUNK,
          limit: ENTRY_CHUNK,
        }),
    })),
    combine: combineEntryCounts,
  });
}
