import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { ImportResult } from '../../../shared/api/evidence';
import { DomainError } from '../../domain-error';
import type { RouteDeps } from '../../http/route-types';
import { ImportSlots, type SlotRefusal } from './import-slots';
import { importEvidencePackage } from './package-import.service';
import {
  DEFAULT_IMPORT_LIMITS,
  DEFAULT_UPLOAD_LIMITS,
  type ImportRouteLimits,
  type ImportSlotLimits,
} from './import-limits';
import { isSpooled, spool } from './upload-spool';

/** Seconds a client refused for the import caps is asked to wait before trying again. */
const RETRY_AFTER_S = 5;

function overCap(refusal: SlotRefusal, slots: ImportSlotLimits): DomainError {
  const [message, detail] =
    refusal === 'user'
      ? ['you have as many imports under way as one user may', `at most ${slots.perUser} imports per user at once`]
      : ['the server has as many imports under way as it takes', `at most ${slots.total} imports at once`];
  return new DomainError('too_many_requests', `${message}; send it again once one has finished`, [{ message: detail }]);
}

export interface ImportRouteDeps extends RouteDeps {
  limits?: Partial<ImportRouteLimits> | undefined;
}

export const importRoutes: FastifyPluginAsyncTypebox<ImportRouteDeps> = async (app, { db, limits: overrides }) => {
  const limits: ImportRouteLimits = { ...DEFAULT_IMPORT_LIMITS, ...DEFAULT_UPLOAD_LIMITS, ...overrides };
  const slots = new ImportSlots(limits.slots);
  const wrongType = (): DomainError =>
    new DomainError('unsupported_media_type', 'send the evidence package with Content-Type: application/zip');

  // A plugin is its own scope: the ZIP parser, and the refusal of JSON, apply to this route alone.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/zip', (request: FastifyRequest, payload: Readable) =>
    spool(request, payload, limits),
  );
  // Before a byte of the body is read (authentication ran in onRequest): a refused upload costs
  // no temp file. The slot is given back when the response ends or the connection goes, whichever
  // comes first, however the request ended.
  app.addHook('preParsing', async (request, reply, payload) => {
    const refusal = slots.take(request.user.id);
    if (refusal) {
      // The error handler keeps headers set before the throw.
      void reply.header('Retry-After', String(RETRY_AFTER_S));
      throw overCap(refusal, limits.slots);
    }
    let held = true;
    reply.raw.once('close', () => {
      if (held) slots.give(request.user.id);
      held = false;
    });
    return payload;
  });
  app.addContentTypeParser('*', async () => {
    throw wrongType();
  });
  // The handler deletes the file too; this covers requests that fail between parsing and it.
  app.addHook('onResponse', async (request) => {
    if (isSpooled(request.body)) await rm(request.body.path, { force: true });
  });

  app.post(
    '/v1/evidence/imports',
    {
      // The spool enforces it (Fastify applies no bodyLimit to a stream parser); declared for the document.
      bodyLimit: limits.bodyBytes,
      schema: {
        tags: ['evidence'],
        summary: 'Import an evidence package (ZIP, format 1 or the upstream shapes); all or nothing',
        consumes: ['application/zip'],
        response: { 201: ImportResult },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!isSpooled(body)) throw wrongType();
      try {
        const result = await importEvidencePackage(db, request.user.id, body.path, limits);
        return await reply.code(201).send(result);
      } finally {
        await rm(body.path, { force: true });
      }
    },
  );
};
