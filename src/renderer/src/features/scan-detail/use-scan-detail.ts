import { useQuery } from '@tanstack/react-query';
import type { Evidence, TimelineBuckets } from '../../../../shared/api/evidence';
import type { OrganizationList } from '../../../../shared/api/organizations';
import type { Scan } from '../../../../shared/api/scans';
import { apiGet } from '../../lib/api-client';
import { BUCKET_COUNT, FULL_TIMELINE_LIMIT, needsBuckets } from './timeline-shaping';

const scanPath = (scanId: string): string => `/v1/scans/${encodeURIComponent(scanId)}`;

export function useScan(scanId: string) {
  return useQuery({ queryKey: ['scans', 'detail', scanId], queryFn: () => apiGet<Scan>(scanPath(scanId)) });
}

/** Counts, breakdown and violations without the timeline, which may be large. */
export function useEvidenceSummary(scanId: string) {
  return useQuery({
    queryKey: ['scans', 'evidence-summary', scanId],
    queryFn: () => apiGet<Evidence>(`${scanPath(scanId)}/evidence`, { types: 'token_breakdown,violations' }),
  });
}

export function useTimeline(scanId: string, requestCount: number | undefined) {
  return useQuery({
    queryKey: ['scans', 'timeline', scanId],
    queryFn: async () => {
      const evidence = await apiGet<Evidence>(`${scanPath(scanId)}/evidence`, { types: 'timeline' });
      return evidence.evidence.timeline ?? [];
    },
    enabled: requestCount !== undefined && requestCount <= FULL_TIMELINE_LIMIT,
    staleTime: Infinity,
  });
}

export function useTimelineBuckets(scanId: string, requestCount: number | undefined) {
  return useQuery({
    queryKey: ['scans', 'timeline-buckets', scanId, BUCKET_COUNT],
    queryFn: async () =>
      (await apiGet<TimelineBuckets>(`${scanPath(scanId)}/evidence/timeline/buckets`, { n: BUCKET_COUNT })).buckets,
    enabled: requestCount !== undefined && needsBuckets(requestCount),
    staleTime: Infinity,
  });
}

export function useOrganizationName(organizationId: string | null) {
  return useQuery({
    queryKey: ['scans', 'organizations'],
    queryFn: () => apiGet<OrganizationList>('/v1/organizations'),
    enabled: organizationId !== null,
    staleTime: 60_000,
    select: (list) => list.organizations.find((organization) => organization.id === organizationId)?.name,
  });
}
