import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { createInflateRaw, crc32 } from 'node:zlib';
import { getFileNameLowLevel, openPromise, type Entry, type ZipFile } from 'yauzl';
import { ApiError } from '../server/api-error';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** The import limits of SPEC.md §8 and §3; tests lower them to stay fast. */
export interface ImportLimits {
  /** The request body (the archive itself). */
  bodyBytes: number;
  entries: number;
  /** Inflated bytes of one entry, counted as they come out of the inflater. */
  entryBytes: number;
  /** Inflated bytes of the whole archive, over all entries read. */
  totalBytes: number;
  /** Inflated : compressed, counted on the bytes actually read and inflated. */
  ratio: number;
  /**
   * The ratio applies only once an entry has inflated past this many bytes: a small JSON file of
   * repetitive text deflates far beyond 200:1 and is harmless; a bomb is only a bomb when it is big.
   */
  ratioFloorBytes: number;
  /** A JSON document is parsed whole, so it gets a bound far below the entry limit. */
  jsonBytes: number;
  /** A timeline line is a small object; a "line" of a gigabyte without newline is an attack. */
  lineBytes: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  bodyBytes: 512 * MiB,
  entries: 10_000,
  entryBytes: GiB,
  totalBytes: 2 * GiB,
  ratio: 200,
  ratioFloorBytes: MiB,
  jsonBytes: 64 * MiB,
  lineBytes: 64 * 1024,
};

export function invalidPackage(reason: string, entry?: string): ApiError {
  return new ApiError('invalid_package', entry === undefined ? reason : `${entry}: ${reason}`, [
    entry === undefined ? { message: reason } : { entry, message: reason },
  ]);
}

/** Anything a read can throw, as the one error of a bad package, naming the entry when known. */
export function asPackageError(error: unknown, entry?: string): ApiError {
  if (error instanceof ApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return invalidPackage(`cannot be read: ${message}`, entry);
}

/** Why a name is refused, or null: nothing from the archive may point outside it or be ambiguous. */
function nameProblem(name: string): string | null {
  if (name.length === 0) return 'the name is empty';
  if (name.includes('\0')) return 'the name contains a NUL character';
  if (name.includes('\\')) return 'the name contains a backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'the name is absolute';
  if (name.split('/').includes('..')) return 'the name contains ".."';
  return null;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Finder and Explorer leave these behind when a user zips a folder by hand. */
function isJunk(name: string): boolean {
  return name.startsWith('__MACOSX/') || name === '.DS_Store' || name.endsWith('/.DS_Store');
}

/** Inflated bytes already spent by one pass over the archive, against the whole-archive limit. */
export interface InflateBudget {
  inflated: number;
}

export interface EntryDigest {
  bytes: number;
  sha256: string;
}

/** Counts the compressed bytes read from the archive, the denominator of the ratio. */
class RawCounter extends Transform {
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

/**
 * Sits after the inflater and enforces every size limit on the bytes that really come out of it:
 * a header can claim anything, so nothing here trusts it until the end, where a disagreement
 * with the header (size or CRC) is refused too.
 */
class InflateGuard extends Transform {
  private readonly hash = createHash('sha256');
  private crc = 0;
  bytes = 0;

  constructor(
    private readonly name: string,
    private readonly entry: Entry,
    private readonly raw: RawCounter,
    private readonly budget: InflateBudget,
    private readonly limits: ImportLimits,
  ) {
    super();
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

/**
 * A ZIP opened for import: the central directory is checked once, on open, and entries are then
 * read as guarded streams, any number of times (the file is our own spooled copy, so it cannot
 * change between passes). Nothing is ever extracted to disk.
 */
export class PackageArchive {
  private constructor(
    private readonly zip: ZipFile,
    /** The entries that matter, by name, in archive order: no directories, no junk. */
    readonly entries: ReadonlyMap<string, Entry>,
    private readonly limits: ImportLimits,
  ) {}

  static async open(path: string, limits: ImportLimits): Promise<PackageArchive> {
    let zip: ZipFile;
    try {
      // decodeStrings off: yauzl would silently turn backslashes into slashes; names are decoded
      // and judged below instead, strictly.
      zip = await openPromise(path, {
        lazyEntries: true,
        validateEntrySizes: true,
        decodeStrings: false,
        autoClose: false,
      });
    } catch (error) {
      throw invalidPackage(`not a ZIP archive, or truncated (${(error as Error).message})`);
    }
    try {
      const entries = await readCentralDirectory(zip, limits);
      return new PackageArchive(zip, entries, limits);
    } catch (error) {
      zip.close();
      throw asPackageError(error);
    }
  }

  close(): void {
    this.zip.close();
  }

  /** The entry's inflated bytes as a stream; `digest()` is valid once the stream has ended. */
  async open(name: string, budget: InflateBudget): Promise<{ stream: Readable; digest: () => EntryDigest }> {
    const entry = this.entries.get(name);
    if (!entry) throw invalidPackage('missing from the archive', name);
    let source: Readable;
    try {
      source = await this.zip.openReadStreamPromise(entry, { decodeFileData: false });
    } catch (error) {
      throw asPackageError(error, name);
    }
    const raw = new RawCounter();
    const guard = new InflateGuard(name, entry, raw, budget, this.limits);
    const done = (): void => undefined;
    if (entry.compressionMethod === 8) pipeline(source, raw, createInflateRaw(), guard, done);
    else pipeline(source, raw, guard, done);
    return { stream: guard, digest: () => guard.digest() };
  }

  /** The whole entry, for JSON documents: bounded by the JSON limit, far below the entry limit. */
  async readBytes(name: string, budget: InflateBudget): Promise<{ data: Buffer; digest: EntryDigest }> {
    const { stream, digest } = await this.open(name, budget);
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        length += chunk.length;
        if (length > this.limits.jsonBytes) {
          throw invalidPackage(`a JSON document may hold at most ${this.limits.jsonBytes} bytes`, name);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      stream.destroy();
      throw asPackageError(error, name);
    }
    return { data: Buffer.concat(chunks, length), digest: digest() };
  }

  /**
   * The entry's lines, a batch per inflated chunk, never more than one partial line held: a
   * timeline of any length passes through in constant memory. A final newline is not a line.
   */
  async *readLines(
    name: string,
    budget: InflateBudget,
    onDigest?: (digest: EntryDigest) => void,
  ): AsyncGenerator<string[]> {
    const { stream, digest } = await this.open(name, budget);
    const lines = new LineDecoder(name);
    let pending: Buffer = Buffer.alloc(0);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const last = chunk.lastIndexOf(0x0a);
        let batch: string[] = [];
        let rest = chunk;
        if (last !== -1) {
          const head = chunk.subarray(0, last);
          batch = lines.decode(pending.length > 0 ? Buffer.concat([pending, head]) : head);
          pending = Buffer.alloc(0);
          rest = chunk.subarray(last + 1);
        }
        if (pending.length + rest.length > this.limits.lineBytes) {
          throw invalidPackage(`line ${lines.count + 1}: longer than ${this.limits.lineBytes} bytes`, name);
        }
        // Copied: a view would pin the whole inflated chunk for the sake of a few bytes.
        if (rest.length > 0) pending = Buffer.concat([pending, rest]);
        if (batch.length > 0) yield batch;
      }
      if (pending.length > 0) yield lines.decode(pending);
    } catch (error) {
      throw asPackageError(error, name);
    } finally {
      // A consumer that stops early (a bad line) must not leave the inflater running.
      stream.destroy();
    }
    onDigest?.(digest());
  }
}

/**
 * Turns runs of whole lines into strings with one UTF-8 decode per run instead of one per line.
 * A newline byte is never part of a multi-byte sequence, so the run is valid UTF-8 exactly when
 * each of its lines is; only a run that fails is decoded again line by line, to name the line.
 * Each line ends up as a decode of its own would leave it: a final CR and a leading BOM removed.
 */
class LineDecoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** Lines decoded so far. */
  count = 0;

  constructor(private readonly name: string) {}

  /** The lines of `run`, which holds whole lines without the newline after the last one. */
  decode(run: Buffer): string[] {
    let text: string;
    try {
      text = this.decoder.decode(run);
    } catch {
      throw this.badLine(run);
    }
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!;
      if (line.charCodeAt(line.length - 1) === 0x0d) line = line.slice(0, -1);
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      lines[i] = line;
    }
    this.count += lines.length;
    return lines;
  }

  private badLine(run: Buffer): ApiError {
    let line = this.count;
    let start = 0;
    for (;;) {
      line += 1;
      const newline = run.indexOf(0x0a, start);
      const end = newline === -1 ? run.length : newline;
      try {
        this.decoder.decode(run.subarray(start, end));
      } catch {
        return invalidPackage(`line ${line}: not UTF-8`, this.name);
      }
      // Unreachable in practice: the run failed, so one of its lines does.
      if (newline === -1) return invalidPackage(`line ${line}: not UTF-8`, this.name);
      start = newline + 1;
    }
  }
}

async function readCentralDirectory(zip: ZipFile, limits: ImportLimits): Promise<Map<string, Entry>> {
  const names = new Set<string>();
  const entries = new Map<string, Entry>();
  let declared = 0;
  let index = 0;
  for await (const entry of zip.eachEntry()) {
    // decodeStrings is off, so fileNameRaw is the name as stored; strict: backslashes stay.
    const name = getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
    index += 1;
    if (index > limits.entries) {
      throw invalidPackage(`entry ${index}: an archive may hold at most ${limits.entries} entries`, name);
    }
    const problem = nameProblem(name);
    if (problem) throw invalidPackage(problem, name);
    if (names.has(name)) throw invalidPackage('the name appears twice in the archive', name);
    names.add(name);
    if (entry.isEncrypted()) throw invalidPackage('the entry is encrypted', name);
    if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
      throw invalidPackage('the entry is a symbolic link', name);
    }
    if (name.endsWith('/') || isJunk(name)) continue;
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw invalidPackage(`unsupported compression method ${entry.compressionMethod}`, name);
    }
    // The header's sizes are checked here only to refuse early what admits to being too big; the
    // limits that matter are enforced on the inflated bytes (InflateGuard).
    if (entry.uncompressedSize > limits.entryBytes) {
      throw invalidPackage(`declares ${entry.uncompressedSize} bytes, over the limit of ${limits.entryBytes}`, name);
    }
    declared += entry.uncompressedSize;
    if (declared > limits.totalBytes) {
      throw invalidPackage(`the archive declares more than ${limits.totalBytes} bytes in all`, name);
    }
    entries.set(name, entry);
  }
  return entries;
}
