import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { Entry } from 'yauzl';
import { invalidPackage } from '../import-errors';
import type { ImportLimits } from '../import-limits';

// The stream transforms an entry's bytes pass through: every size limit is enforced on what the
// inflater really gives, never on what a header claims.

/** Inflated bytes already spent by one pass over the archive, against the whole-archive limit. */
export interface InflateBudget {
  inflated: number;
}

export interface EntryDigest {
  bytes: number;
  sha256: string;
}

/** Counts the compressed bytes read from the archive, the denominator of the ratio. */
export class RawCounter extends Transform {
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

/**
 * Inflated chunks of this size, and this much read ahead: an import inflates on libuv's pool
 * while the main thread parses and writes the chunks before (zlib's 16 KiB default kept the two
 * in lockstep, the main thread idle for a sixth of a million-entry import). Two chunks ahead are
 * enough for that; sixteen (4 MiB) lived long enough waiting to outlast young collections, and
 * their buffers, outside the JS heap, then waited for a full one: up to 50 MB of a PostgreSQL
 * import's peak.
 */
export const INFLATE_CHUNK_BYTES = 256 * 1024;
const READ_AHEAD_BYTES = 512 * 1024;

/**
 * Sits after the inflater and enforces every size limit on the bytes that really come out of it:
 * a header can claim anything, so nothing here trusts it until the end, where a disagreement
 * with the header (size or CRC) is refused too.
 */
export class InflateGuard extends Transform {
  private readonly hash = createHash('sha256');
  private crc = 0;
  bytes = 0;

  constructor(
    private readonly name: string,
    private readonly entry: Entry,
    private readonly raw: RawCounter,
    private readonly budget: InflateBudget,
    private readonly limits: ImportLimits,
    /** The ratio applied to the whole archive: what one pass may inflate in all. */
    private readonly archiveLimit: number,
  ) {
    // Room for the inflater to run ahead while the consumer writes what came before.
    super({ readableHighWaterMark: READ_AHEAD_BYTES });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.budget.inflated += chunk.length;
    const { limits } = this;
    if (this.bytes > limits.entryBytes) {
      return callback(
        invalidPackage(`inflates to more than ${limits.entryBytes} bytes, the limit for one entry`, this.name),
      );
    }
    if (this.budget.inflated > limits.totalBytes) {
      return callback(
        invalidPackage(
          `the archive inflates to more than ${limits.totalBytes} bytes, the limit for the whole`,
          this.name,
        ),
      );
    }
    if (this.budget.inflated > this.archiveLimit) {
      return callback(
        invalidPackage(
          `the archive inflates to more than ${this.archiveLimit} bytes, ${limits.ratio} times its size; refused as a zip bomb`,
          this.name,
        ),
      );
    }
    if (this.bytes > limits.ratioFloorBytes && this.bytes > limits.ratio * Math.max(1, this.raw.bytes)) {
      return callback(
        invalidPackage(
          `compression ratio over ${limits.ratio}:1 (${this.bytes} bytes from ${this.raw.bytes}); refused as a zip bomb`,
          this.name,
        ),
      );
    }
    this.hash.update(chunk);
    this.crc = crc32(chunk, this.crc);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.bytes !== this.entry.uncompressedSize) {
      return callback(
        invalidPackage(`inflates to ${this.bytes} bytes but its header says ${this.entry.uncompressedSize}`, this.name),
      );
    }
    if (this.crc >>> 0 !== this.entry.crc32 >>> 0) return callback(invalidPackage('CRC-32 mismatch', this.name));
    callback();
  }

  digest(): EntryDigest {
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
}
