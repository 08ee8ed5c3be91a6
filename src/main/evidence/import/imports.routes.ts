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
import { ImportSlots, type SlotRefusal } from './import-slots';
import { importEvidencePackage } from './package-import.service';
import {
  DEFAULT_IMPORT_LIMITS,
  DEFAULT_UPLOAD_LIMITS,
  type ImportRouteLimits,
  type ImportSlotLimits,
} from './import-limits';

/** Seconds a client refused for the import caps is asked to wait before trying again. */
const RETRY_AFTER_S = 5;

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

function stalled(idleMs: number): DomainError {
  return new DomainError('request_timeout', `the upload sent nothing for ${idleMs / 1000} s`, [
    { message: `an upload may pause for at most ${idleMs} ms` },
  ]);
}

/**
 * Counts the body against the limit and ends an upload that stalls: a client that sends a few
 * bytes and then nothing would otherwise hold its temp file and its import slot for as long as it
 * keeps the connection open.
 */
class UploadGuard extends Transform {
  bytes = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limit: number,
    private readonly idleMs: number,
  ) {
    super();
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.destroy(stalled(this.idleMs)), this.idleMs);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return callback(tooLarge(this.limit));
    this.arm();
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    clearTimeout(this.timer);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    callback(error);
  }
}

/**
 * yauzl needs random access to the central directory at the end of the archive, so the body goes
 * to a temp file (never into memory) as it arrives, counted against the limit on the way.
 */
async function spool(request: FastifyRequest, payload: Readable, limits: ImportRouteLimits): Promise<SpooledArchive> {
  const limit = limits.bodyBytes;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    payload.resume();
    throw tooLarge(limit);
  }
  const path = join(limits.spoolDir ?? tmpdir(), `scandesk-import-${randomUUID()}.zip`);
  const guard = new UploadGuard(limit, limits.bodyIdleMs);
  try {
    // On a refusal the pipeline destroys the request: the error is answered and the connection
    // closed, never read to its end.
    await pipeline(payload, guard, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { path, bytes: guard.bytes };
}

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
