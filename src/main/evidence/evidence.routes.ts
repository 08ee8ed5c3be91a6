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
import { parseEvidenceTypes, readEvidence, timelineBuckets, timelinePage } from './evidence.service';

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
};
