import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EvidenceParams, ExportBody } from '../../../shared/api/evidence';
import type { Db, ScanRow } from '../../db/index';
import { findVisibleScans } from '../../scans/scans.repository';
import { DomainError } from '../../domain-error';
import { attachmentDisposition } from '../../http/content-disposition';
import { downloadStamp } from '../../http/download-stamp';
import type { RouteDeps } from '../../http/route-types';
import { writeEvidencePackage } from './package-writer';

const tags = ['evidence'];
const zipResponse = {
  200: { description: 'An evidence package (format 1), application/zip', type: 'string', format: 'binary' },
};

/** Ids a visibility statement takes at once. */
const VISIBLE_CHUNK = 500;

async function visibleScans(db: Db, userId: string, ids: readonly string[]): Promise<ScanRow[]> {
  const found = new Map<string, ScanRow>();
  for (let at = 0; at < ids.length; at += VISIBLE_CHUNK) {
    for (const scan of await findVisibleScans(db, ids.slice(at, at + VISIBLE_CHUNK), userId)) found.set(scan.id, scan);
  }
  const scans: ScanRow[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const scan = found.get(id);
    if (scan) scans.push(scan);
    else missing.push(id);
  }
  if (missing.length > 0) {
    throw new DomainError(
      'not_found',
      `${missing.length === 1 ? 'scan' : `${missing.length} scans`} not found`,
      missing.map((id) => ({ field: 'scan_ids', message: `${id} not found` })),
    );
  }
  return scans;
}

export const packageRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/scans/:scan_id/evidence/download',
    {
      schema: {
        tags,
        summary: 'Download one scan as an evidence package (ZIP)',
        params: EvidenceParams,
        produces: ['application/zip'],
        response: zipResponse,
      },
    },
    async (request, reply) => {
      const scans = await visibleScans(db, request.user.id, [request.params.scan_id]);
      return reply
        .type('application/zip')
        .header('Content-Disposition', attachmentDisposition(`scandesk-evidence-${request.params.scan_id}.zip`))
        .send(writeEvidencePackage(db, scans));
    },
  );

  app.post(
    '/v1/evidence/exports',
    {
      schema: {
        tags,
        summary: 'Export several scans as one evidence package (ZIP)',
        body: ExportBody,
        produces: ['application/zip'],
        response: zipResponse,
      },
    },
    async (request, reply) => {
      const scans = await visibleScans(db, request.user.id, request.body.scan_ids);
      return reply
        .type('application/zip')
        .header('Content-Disposition', attachmentDisposition(`scandesk-evidence-${downloadStamp(new Date())}.zip`))
        .send(writeEvidencePackage(db, scans));
    },
  );
};
