import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain-error';
import { packageTooLarge } from './import-errors';
import type { ImportRouteLimits } from './import-limits';

// An upload's body, to a private temp file as it arrives: counted against the body limit, and
// ended when it stalls.

/** The request body once spooled: a private temp file holding the archive, deleted after the request. */
interface SpooledArchive {
  path: string;
  bytes: number;
}

export const isSpooled = (body: unknown): body is SpooledArchive =>
  typeof body === 'object' && body !== null && typeof (body as { path?: unknown }).path === 'string';

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
    if (this.bytes > this.limit) return callback(packageTooLarge(this.limit));
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
export async function spool(
  request: FastifyRequest,
  payload: Readable,
  limits: ImportRouteLimits,
): Promise<SpooledArchive> {
  const limit = limits.bodyBytes;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    payload.resume();
    throw packageTooLarge(limit);
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
