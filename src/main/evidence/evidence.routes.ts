import {
  Evidence,
  EvidenceParams,
  EvidenceQuery,
  TimelineBuckets,
  TimelineBucketsQuery,
  TimelinePage,
  TimelinePageQuery,
} from '../../shared/api/evidence';
import type { App, RouteDeps } from '../server/types';
import { parseEvidenceTypes, readEvidence, timelineBuckets, timelinePage } from './evidence.service';

const tags = ['evidence'];

export function registerEvidenceRoutes(app: App, { db }: RouteDeps): void {
  app.get(
    '/v1/scans/:scan_id/evidence',
    {
      schema: {
        tags,
        summary: "A scan's evidence; `types` limits which of timeline, token_breakdown, violations appear",
        params: EvidenceParams,
        querystring: EvidenceQuery,
        response: { 200: Evidence },
      },
    },
    async (request) =>
      readEvidence(db, request.user.id, request.params.scan_id, parseEvidenceTypes(request.query.types)),
  );

  app.get(
    '/v1/scans/:scan_id/evidence/timeline/buckets',
    {
      schema: {
        tags,
        summary: "At most n equal-time buckets over a scan's timeline, for charts",
        params: EvidenceParams,
        querystring: TimelineBucketsQuery,
        response: { 200: TimelineBuckets },
      },
    },
    async (request) => ({
      buckets: await timelineBuckets(db, request.user.id, request.params.scan_id, request.query.n),
    }),
  );

  app.get(
    '/v1/scans/:scan_id/evidence/timeline',
    {
      schema: {
        tags,
        summary:
          "A page of a scan's timeline in order, each entry with its index; `since` (inclusive), `until` " +
          '(exclusive) and an exact `action` filter it, `total` counts the matches (extension)',
        params: EvidenceParams,
        querystring: TimelinePageQuery,
        response: { 200: TimelinePage },
      },
    },
    async (request) => timelinePage(db, request.user.id, request.params.scan_id, request.query),
  );
}
