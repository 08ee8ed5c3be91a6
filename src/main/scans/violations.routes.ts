import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ViolationEntries,
  ViolationEntriesQuery,
  ViolationPage,
  ViolationPageQuery,
  ViolationSummary,
} from '../../shared/api/scan-violations';
import { ScanParams, SCAN_VIOLATIONS_INLINE_MAX } from '../../shared/api/scans';
import type { RouteDeps } from '../http/route-types';
import { readViolationSummary, violationPage, violationsByEntry } from './violations.service';

const tags = ['scans'];

export const violationRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/scans/:id/violations',
    {
      schema: {
        tags,
        summary: "A page of a scan's violations in the scan's order, with their total (extension)",
        description:
          `The scan object lists at most its first ${SCAN_VIOLATIONS_INLINE_MAX} violations; this pages through all ` +
          'of them, in the same order; `rule` and `severity` page through one row of the summary alone. A scan ' +
          'you cannot see is 404, as for the scan itself.',
        params: ScanParams,
        querystring: ViolationPageQuery,
        response: { 200: ViolationPage },
      },
    },
    async (request) => violationPage(db, request.user.id, request.params.id, request.query),
  );

  app.get(
    '/v1/scans/:id/violations/summary',
    {
      schema: {
        tags,
        summary: "A scan's violations counted by severity and by rule, without listing them (extension)",
        params: ScanParams,
        response: { 200: ViolationSummary },
      },
    },
    async (request) => readViolationSummary(db, request.user.id, request.params.id),
  );

  app.get(
    '/v1/scans/:id/violations/entries',
    {
      schema: {
        tags,
        summary:
          'How many violations point at each timeline entry of the index range [offset, offset + limit), ' +
          'entries with none left out (extension)',
        params: ScanParams,
        querystring: ViolationEntriesQuery,
        response: { 200: ViolationEntries },
      },
    },
    async (request) => violationsByEntry(db, request.user.id, request.params.id, request.query),
  );
};
