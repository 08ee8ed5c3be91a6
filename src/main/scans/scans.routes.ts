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
  SubmitScanHeaders,
} from '../../shared/api/scans';
import { attachmentDisposition } from '../http/content-disposition';
import { downloadStamp } from '../http/download-stamp';
import { exportScans } from './scan-export.service';
import { createdResponse } from '../http/created-response';
import type { RouteDeps } from '../http/route-types';
import { bodyDigest } from './body-digest';
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
          "Rules the schema cannot state: with a `timeline`, `tokens` must equal the sum of its entries' tokens; " +
          'otherwise 400 naming `tokens`. A `created_at` more than 5 minutes ahead of the server clock is 400 naming ' +
          '`created_at`. With an `Idempotency-Key`, the same key (per user) with the same body, as a JSON value, answers ' +
          'the scan the first request stored, 200 with `Idempotent-Replayed: true`; with another body, 409 `conflict`. ' +
          'The byte limit below binds before the entry count can for long non-ASCII ' +
          'text: 100,000 entries with ASCII actions of 100 characters weigh about 22 MB and fit.',
        body: SubmitScanBody,
        headers: SubmitScanHeaders,
        response: {
          201: createdResponse(Scan),
          200: {
            ...Scan,
            description:
              'The scan that an earlier request with the same `Idempotency-Key` and body stored, as GET answers it now',
            headers: {
              'Idempotent-Replayed': { type: 'string', description: '`true`: nothing new was stored' },
              Location: { type: 'string', description: 'The path at which the scan can be read' },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      const { scan, replayed } = await submitScan(
        db,
        request.user.id,
        request.body,
        key === undefined ? undefined : { key, digest: bodyDigest(request.body) },
      );
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return reply
        .code(replayed ? 200 : 201)
        .header('Location', `/v1/scans/${scan.id}`)
        .send(scan);
    },
  );

  app.get(
    '/v1/scans/:id',
    { schema: { tags, summary: 'A scan with its violations', params: ScanParams, response: { 200: Scan } } },
    async (request) => readScan(db, request.user.id, request.params.id),
  );
};
