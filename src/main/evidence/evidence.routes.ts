import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Evidence,
  EvidenceParams,
  EvidenceQuery,
  TimelineBuckets,
  TimelineBucketsQuery,
  TimelinePage,
  TimelinePageQuery,
} from '../../shared/api/evidence';
import { TokenBreakdown, Violation } from '../../shared/api/scans';
import type { RouteDeps } from '../http/route-types';
import { parseDateOrDateTime, parseUntil } from '../../shared/time';
import { parseEvidenceTypes, readEvidence, timelinePage } from './evidence.service';
import { timelineBuckets } from './timeline/timeline-buckets.service';

const tags = ['evidence'];
/** One object each: the framework compiles a serializer once per schema object. */
const BREAKDOWN_SCHEMA: Record<string, unknown> = { ...TokenBreakdown };
const VIOLATION_SCHEMA: Record<string, unknown> = { ...Violation };

export const evidenceRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
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
    async (request, reply) => {
      const body = await readEvidence(
        db,
        request.user.id,
        request.params.scan_id,
        parseEvidenceTypes(request.query.types),
        {
          tokenBreakdown: reply.compileSerializationSchema(BREAKDOWN_SCHEMA),
          violation: reply.compileSerializationSchema(VIOLATION_SCHEMA),
        },
      );
      // A stream is sent as it is, never through the response schema's serializer.
      return reply.type('application/json; charset=utf-8').send(body as unknown as Evidence);
    },
  );

  app.get(
    '/v1/scans/:scan_id/evidence/timeline/buckets',
    {
      schema: {
        tags,
        summary: "At most n equal-time buckets over a scan's timeline, or over since/until of it, for charts",
        description:
          "Buckets are aligned to the timeline's summary grid, so their width is a power-of-two multiple of its finest " +
          'cell and there may be fewer than n; the first and last are clipped to the window. Empty buckets are left out.',
        params: EvidenceParams,
        querystring: TimelineBucketsQuery,
        response: { 200: TimelineBuckets },
      },
    },
    async (request) => ({
      buckets: await timelineBuckets(db, request.user.id, request.params.scan_id, request.query.n, {
        since: request.query.since === undefined ? undefined : (parseDateOrDateTime(request.query.since) ?? undefined),
        until: request.query.until === undefined ? undefined : (parseUntil(request.query.until) ?? undefined),
      }),
    }),
  );

  app.get(
    '/v1/scans/:scan_id/evidence/timeline',
    {
      schema: {
        tags,
        summary:
          "A page of a scan's timeline in order, each entry with its index; `since` (inclusive), `until` " +
          '(exclusive; a date includes that whole UTC day) and an exact `action` filter it, `total` counts the matches (extension)',
        params: EvidenceParams,
        querystring: TimelinePageQuery,
        response: { 200: TimelinePage },
      },
    },
    async (request) => timelinePage(db, request.user.id, request.params.scan_id, request.query),
  );
};
