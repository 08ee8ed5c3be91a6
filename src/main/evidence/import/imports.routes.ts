import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ImportResult } from '../../../shared/api/evidence';
import { DomainError } from '../../http/domain-error';
import type { RouteDeps } from '../../http/route-types';
import { importEvidencePackage } from './package-import.service';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './package-archive';

/** The request body once spooled: a private temp file holding the archive, deleted after the request. */
interface SpooledArchive {
  path: string;
  bytes: number;
}

const isSpooled = (body: unknown): body is SpooledArchive =>
  typeof body === 'object' && body !== null && typeof (body as { path?: unknown }).path === 'string';

function tooLarge(limit: number): DomainError {
  return new DomainError('payload_too_large', `the evidence package is larger than ${limit} bytes`, [
    { message: `limit is ${limit} bytes` },
  ]);
}

class ByteLimit extends Transform {
  bytes = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return callback(tooLarge(this.limit));
    callback(null, chunk);
  }
}

/**
 * yauzl needs random access to the central directory at the end of the archive, so the body goes
 * to a temp file (never into memory) as it arrives, counted against the limit on the way.
 */
async function spool(request: FastifyRequest, payload: Readable, limit: number): Promise<SpooledArchive> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    payload.resume();
    throw tooLarge(limit);
  }
  const path = join(tmpdir(), `scandesk-import-${randomUUID()}.zip`);
  const counter = new ByteLimit(limit);
  try {
    await pipeline(payload, counter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { path, bytes: counter.bytes };
}

export interface ImportRouteDeps extends RouteDeps {
  limits?: Partial<ImportLimits> | undefined;
}

export const importRoutes: FastifyPluginAsyncTypebox<ImportRouteDeps> = async (app, { db, limits: overrides }) => {
  const limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS, ...overrides };
  const wrongType = (): DomainError =>
    new DomainError('unsupported_media_type', 'send the evidence package with Content-Type: application/zip');

  // A plugin is its own scope: the ZIP parser, and the refusal of JSON, apply to this route alone.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/zip', (request: FastifyRequest, payload: Readable) =>
    spool(request, payload, limits.bodyBytes),
  );
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
