import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Scan, ScanList, ScanListQuery, ScanParams, SubmitScanBody } from '../../shared/api/scans';
import type { RouteDeps } from '../http/route-types';
import { listScans, readScan, submitScan } from './scans.service';

const tags = ['scans'];

/**
 * 100,000 timeline entries do not fit the 1 MiB JSON limit of SPEC.md §3, so submissions get
 * their own: room for the largest timeline §6 allows, with long action names.
 */
export const SUBMIT_BODY_LIMIT = 32 * 1024 * 1024;

export const scanRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/scans',
    {
      schema: {
        tags,
        summary: 'Visible scans, newest first unless sorted, with the total of all that match',
        querystring: ScanListQuery,
        response: { 200: ScanList },
      },
    },
    async (request) => listScans(db, request.user.id, request.query),
  );

  app.post(
    '/v1/scans',
    {
      bodyLimit: SUBMIT_BODY_LIMIT,
      schema: {
        tags,
        summary: "Submit a scan; it is evaluated against its organization's policy at once",
        body: SubmitScanBody,
        response: { 201: Scan },
      },
    },
    async (request, reply) => {
      const scan = await submitScan(db, request.user.id, request.body);
      return reply.code(201).header('Location', `/v1/scans/${scan.id}`).send(scan);
    },
  );

  app.get(
    '/v1/scans/:id',
    { schema: { tags, summary: 'A scan with its violations', params: ScanParams, response: { 200: Scan } } },
    async (request) => readScan(db, request.user.id, request.params.id),
  );
};
