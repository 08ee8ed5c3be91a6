import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SyncScansBody } from '../../../shared/api/sync';
import type { ScanRow } from '../../db/index';
import type { RouteDeps } from '../../http/route-types';
import { findVisibleScans } from '../../scans/scans.repository';
import { syncScanLines } from './scan-lines';

const tags = ['sync'];

/** Ids a visibility statement takes at once. */
const VISIBLE_CHUNK = 500;

export const syncScanRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.post(
    '/v1/sync/scans',
    {
      schema: {
        tags,
        summary: 'Scans you can see, whole, a line each (NDJSON): what a store syncing from this one stores',
        description:
          'Answers `application/x-ndjson`, one line per asked id in the order asked: a `SyncScanLine` (the scan as ' +
          'the API answers it with every violation, its evidence totals, its timeline as `[epoch ms, action, tokens]`), ' +
          'or `{id, skipped}`: `gone` for a scan not found or not visible, `package` for one to fetch as an evidence ' +
          'package (a timeline over 5,000 entries, a line over 1 MiB, or past the answer cap of 32 MiB).',
        body: SyncScansBody,
        produces: ['application/x-ndjson'],
        response: {
          200: {
            description:
              'application/x-ndjson: a `SyncScanLine` or `SyncScanSkipped` per asked id (src/shared/api/sync.ts)',
            type: 'string',
          },
        },
      },
    },
    async (request, reply) => {
      const ids = request.body.scan_ids;
      const found = new Map<string, ScanRow>();
      for (let at = 0; at < ids.length; at += VISIBLE_CHUNK) {
        for (const scan of await findVisibleScans(db, ids.slice(at, at + VISIBLE_CHUNK), request.user.id)) {
          found.set(scan.id, scan);
        }
      }
      // A stream is sent as it is, never through the response schema's serializer.
      return reply.type('application/x-ndjson; charset=utf-8').send(syncScanLines(db, ids, found) as unknown as string);
    },
  );
};
