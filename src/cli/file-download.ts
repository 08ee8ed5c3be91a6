import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { link, open, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { TransferError } from './client-errors';

/** A file the command will not write, or could not: one sentence, exit 1. */
export class SaveError extends Error {
  override readonly name = 'SaveError';
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Checks, before anything is requested, that the target can be written: so that a refusal costs
 * no download, and so that `--force` is asked for before the work rather than after it.
 */
export async function checkTarget(target: string, force: boolean): Promise<void> {
  const existing = await stat(target).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw new SaveError(`cannot write ${target} (${errnoCode(error) ?? String(error)})`);
  });
  if (existing?.isDirectory()) throw new SaveError(`${target} is a directory; name the file to write`);
  if (existing && !force) throw new SaveError(`${target} already exists; pass --force to overwrite it`);
  const directory = await stat(dirname(target)).catch(() => undefined);
  if (!directory?.isDirectory()) throw new SaveError(`cannot write ${target}: ${dirname(target)} is not a directory`);
}

/** The end-of-central-directory record: a ZIP that lacks it was cut off, whatever the transfer said. */
const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
/** The record (22 bytes) plus the longest comment a ZIP may carry. */
const EOCD_SEARCH = 22 + 0xffff;

async function endsLikeZip(handle: FileHandle, size: number): Promise<boolean> {
  const length = Math.min(size, EOCD_SEARCH);
  if (length < 22) return false;
  const tail = Buffer.alloc(length);
  await handle.read(tail, 0, length, size - length);
  return tail.lastIndexOf(EOCD) !== -1 && tail.lastIndexOf(EOCD) <= length - 22;
}

/** A write may take fewer bytes than given (a full disk, a signal); the rest is written after. */
async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  for (let offset = 0; offset < chunk.length;) {
    const { bytesWritten } = await handle.write(chunk, offset);
    offset += bytesWritten;
  }
}

/** Puts the finished temp file under its final name; without `force`, never over a file that appeared meanwhile. */
async function commit(temp: string, target: string, force: boolean): Promise<void> {
  if (force) {
    await rename(temp, target);
    return;
  }
  try {
    // link() fails if the target exists, atomically: no window in which a file made by someone
    // else since checkTarget() could be replaced.
    await link(temp, target);
    await unlink(temp);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') throw new SaveError(`${target} already exists; pass --force to overwrite it`);
    // Some file systems (FAT, a few network mounts) have no hard links: check, then rename.
    const exists = await stat(target).then(
      () => true,
      () => false,
    );
    if (exists) throw new SaveError(`${target} already exists; pass --force to overwrite it`);
    await rename(temp, target);
  }
}

/**
 * Streams a ZIP response body into a temporary file next to `target`, then renames it into place:
 * whatever breaks (the connection, the disk, Ctrl-C), no partial file is ever left under the final
 * name, and the temporary one is removed. Resolves the number of bytes written.
 */
export async function saveZipResponse(response: Response, target: string, force: boolean): Promise<number> {
  const type = response.headers.get('content-type') ?? '';
  if (!/^application\/zip\b/i.test(type) || !response.body) {
    await response.body?.cancel();
    throw new SaveError(`the server did not answer with a ZIP (Content-Type: ${type || 'none'}); nothing was written`);
  }
  const absolute = resolve(target);
  // Hidden and unmistakable, in the same directory so that the rename stays on one file system.
  const temp = join(dirname(absolute), `.${basename(absolute)}.${randomBytes(4).toString('hex')}.part`);
  // On Ctrl-C the process ends without running finally blocks: clean up synchronously, then go.
  const onSignal = (signal: NodeJS.Signals): void => {
    rmSync(temp, { force: true });
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let handle: FileHandle | undefined;
  let bytes = 0;
  try {
    handle = await open(temp, 'wx+', 0o644).catch((error: unknown) => {
      throw new SaveError(`cannot write in ${dirname(absolute)} (${errnoCode(error) ?? String(error)})`);
    });
    const source = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    try {
      // One awaited write per chunk: the socket is read no faster than the disk takes it.
      for await (const chunk of source as AsyncIterable<Uint8Array>) {
        await writeAll(handle, chunk).catch((error: unknown) => {
          throw new SaveError(`cannot write ${temp} (${(error as Error).message}); nothing was saved`);
        });
        bytes += chunk.length;
      }
    } catch (error) {
      if (error instanceof SaveError) throw error;
      const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new TransferError(
        `the download broke off after ${bytes} bytes (${reason}); nothing was saved under ${target}`,
      );
    }
    if (!(await endsLikeZip(handle, bytes))) {
      throw new TransferError(`the download is not a complete ZIP; nothing was saved under ${target}`);
    }
    // On disk before it has its name: after a crash, the final name holds the whole file or nothing new.
    await handle.sync();
    await handle.close();
    handle = undefined;
    await commit(temp, absolute, force);
    return bytes;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true });
  }
}
