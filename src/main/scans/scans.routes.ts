import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  Scan,
  ScanExportQuery,
  ScanList,
  ScanListQuery,
  ScanParams,
  ScanSummary,
  SubmitScanBody,
} from '../../shared/api/scans';
import { attachmentDisposition } from '../http/content-disposition';
import { downloadStamp } from '../http/download-stamp';
import { exportScans } from './scan-export.service';
import { createdResponse } from '../http/created-response';
import type { RouteDeps } from '../http/route-types';
import { listScans, readScan, submitScan } from './scans.service';

const tags = ['scans'];

/**
 * 100,000 timeline entries do not fit the 1 MiB JSON limit (docs/contract/limits.md#requests), so
 * submissions get their own: room for the largest timeline docs/contract/api.md#scans allows, with
 * ASCII action names of full length.
 */
export const SUBMIT_BODY_LIMIT = 32 * 1024 * 1024;

export const scanRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/scans',
    {
      schema: {
        tags,
        summary: 'Visible scans, newest first unless sorted, with the total of all that match',
        description:
          'A rule the schema cannot state: `after` must be the id of a scan you can see; otherwise 400 naming `after`.',
        querystring: ScanListQuery,
        response: { 200: ScanList },
      },
    },
    async (request) => listScans(db, request.user.id, request.query),
  );

  app.get(
    '/v1/exports/scans',
    {
      schema: {
        tags,
        summary: 'Every scan the list filters match, as one CSV or JSON download (streamed)',
        description:
          'The same visibility, filters and order as GET /v1/scans, without paging. CSV text that a spreadsheet would run ' +
          'as a formula (starting with = + - @, tab or CR) is prefixed with an apostrophe.',
        querystring: ScanExportQuery,
        response: {
          200: {
            description: 'Every matching scan, as `format` asks',
            content: { 'text/csv': { schema: Type.String() }, 'application/json': { schema: Type.Array(ScanSummary) } },
          },
        },
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'csv';
      const stamp = downloadStamp(new Date());
      return (
        reply
          .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header('Content-Disposition', attachmentDisposition(`scandesk-scans-${stamp}.${format}`))
          // A stream is sent as it is, never through the response schema's serializer.
          .send(exportScans(db, request.user.id, request.query) as unknown as string)
      );
    },
  );

  app.post(
    '/v1/scans',
    {
      bodyLimit: SUBMIT_BODY_LIMIT,
      schema: {
        tags,
        summary: "Submit a scan; it is evaluated against its organization's policy at once",
        description:
          "A rule the schema cannot state: with a `timeline`, `tokens` must equal the sum of its entries' tokens; " +
          'otherwise 400 naming `tokens`. The byte limit below binds before the entry count can for long non-ASCII ' +
          'text: 100,000 entries with ASCII actions of 100 characters weigh about 22 MB and fit.',
        body: SubmitScanBody,
        response: { 201: createdResponse(Scan) },
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
