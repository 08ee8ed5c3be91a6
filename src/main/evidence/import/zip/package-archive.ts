import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { createInflateRaw, crc32 } from 'node:zlib';
import {
  getFileNameLowLevel,
  openPromise,
  type Entry,
  type LocalFileHeader,
  type RandomAccessReader,
  type ZipFile,
} from 'yauzl';
import { JsonDepthError, JsonDepthGuard } from '../../../shared/json-depth';
import { DomainError } from '../../http/domain-error';
import { JsonlLineError, JsonlLineSplitter, type LineRun } from '../jsonl/line-splitter';
import {
  hasZip64Extra,
  localHeaderProblem,
  overlapProblem,
  parseExtraFields,
  unicodePathProblem,
  type RecordSpan,
} from './zip-records';

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
  /**
   * Inflated : compressed, counted on the bytes actually read and inflated, for each entry and for
   * the whole archive (all entries one pass reads against the archive's size).
   */
  ratio: number;
  /**
   * The ratio applies only once an entry (or the archive) has inflated past this many bytes: a small JSON file of
   * repetitive text deflates far beyond 200:1 and is harmless; a bomb is only a bomb when it is big.
   */
  ratioFloorBytes: number;
  /**
   * JSON documents are parsed whole and kept until the import ends, so all of a package's together
   * get a bound far below the entry limit.
   */
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

const NOT_A_ZIP = 'not a ZIP archive, or only part of one (a download or copy cut short)';

export function invalidPackage(reason: string, entry?: string): DomainError {
  return new DomainError('invalid_package', entry === undefined ? reason : `${entry}: ${reason}`, [
    entry === undefined ? { message: reason } : { entry, message: reason },
  ]);
}

/** Anything a read can throw, as the one error of a bad package, naming the entry when known. */
export function asPackageError(error: unknown, entry?: string): DomainError {
  if (error instanceof DomainError) return error;
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
 * Inflated chunks of this size, and this much read ahead: an import inflates on libuv's pool
 * while the main thread parses and writes the chunks before (zlib's 16 KiB default kept the two
 * in lockstep, the main thread idle for a sixth of a million-entry import).
 */
const INFLATE_CHUNK_BYTES = 256 * 1024;
const READ_AHEAD_BYTES = 4 * 1024 * 1024;

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

/**
 * A ZIP opened for import: the central directory is checked once, on open, and entries are then
 * read as guarded streams, any number of times (the file is our own spooled copy, so it cannot
 * change between passes). Nothing is ever extracted to disk.
 */
export class PackageArchive {
  /** JSON bytes read so far: an import keeps its documents parsed, so all of them count. */
  private jsonBytes = 0;

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
    } catch {
      // The reader's own words ("end of central directory record signature not found") tell a
      // person nothing more than this does.
      throw invalidPackage(NOT_A_ZIP);
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
    const { limits } = this;
    const archiveLimit = Math.max(limits.ratioFloorBytes, limits.ratio * this.zip.fileSize);
    const guard = new InflateGuard(name, entry, raw, budget, limits, archiveLimit);
    const done = (): void => undefined;
    if (entry.compressionMethod === 8)
      pipeline(source, raw, createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES }), guard, done);
    else pipeline(source, raw, guard, done);
    return { stream: guard, digest: () => guard.digest() };
  }

  /**
   * A JSON document's bytes, whole: bounded by the package's JSON limit and by nesting depth, both
   * checked as the bytes come so that a hostile document stops early.
   */
  async readJsonBytes(name: string, budget: InflateBudget): Promise<{ data: Buffer; digest: EntryDigest }> {
    const { stream, digest } = await this.open(name, budget);
    const depth = new JsonDepthGuard();
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        length += chunk.length;
        this.jsonBytes += chunk.length;
        if (this.jsonBytes > this.limits.jsonBytes) {
          throw invalidPackage(
            `the package's JSON documents may hold at most ${this.limits.jsonBytes} bytes in all`,
            name,
          );
        }
        depth.push(chunk);
        chunks.push(chunk);
      }
    } catch (error) {
      stream.destroy();
      if (error instanceof JsonDepthError) {
        throw invalidPackage(`${error.message}; a JSON document may nest at most ${error.maxDepth} levels`, name);
      }
      throw asPackageError(error, name);
    }
    return { data: Buffer.concat(chunks, length), digest: digest() };
  }

  /**
   * The entry's lines, a run of whole lines per inflated chunk, in constant memory
   * (JsonlLineSplitter). The digest goes to `onDigest` once the last line has been read. A
   * JsonlLineError from reading a run's lines is the caller's to turn into a refusal of `name`
   * (`lineError`).
   */
  async *readLineRuns(
    name: string,
    budget: InflateBudget,
    onDigest?: (digest: EntryDigest) => void,
  ): AsyncGenerator<LineRun> {
    const { stream, digest } = await this.open(name, budget);
    const lines = new JsonlLineSplitter(this.limits.lineBytes);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const run = lines.push(chunk);
        if (run) yield run;
      }
      const last = lines.end();
      if (last) yield last;
    } catch (error) {
      throw error instanceof JsonlLineError ? lineError(error, name) : asPackageError(error, name);
    } finally {
      // A consumer that stops early (a bad line) must not leave the inflater running.
      stream.destroy();
    }
    onDigest?.(digest());
  }
}

/** A line of `name` that cannot be a line, as the refusal of the package. */
export const lineError = (error: JsonlLineError, name: string): DomainError => invalidPackage(error.message, name);

async function readCentralDirectory(zip: ZipFile, limits: ImportLimits): Promise<Map<string, Entry>> {
  // yauzl reads the central directory from this cursor on; before the first entry it is the
  // directory's offset, which it does not otherwise expose.
  const centralDirectoryOffset = (zip as unknown as { readEntryCursor: number }).readEntryCursor;
  const names = new Set<string>();
  const entries = new Map<string, Entry>();
  const spans: RecordSpan[] = [];
  let declared = 0;
  let index = 0;
  for await (const entry of zip.eachEntry()) {
    // decodeStrings is off, so fileNameRaw is the name as stored; strict: backslashes stay. The
    // extras are left out here: a Unicode-path extra may only repeat this name (checked below).
    const name = getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, [], true);
    index += 1;
    if (index > limits.entries) {
      throw invalidPackage(`entry ${index}: an archive may hold at most ${limits.entries} entries`, name);
    }
    const problem = nameProblem(name) ?? unicodePathProblem(name, entry.extraFields);
    if (problem) throw invalidPackage(problem, name);
    if (names.has(name)) throw invalidPackage('the name appears twice in the archive', name);
    names.add(name);
    if (entry.isEncrypted()) throw invalidPackage('the entry is encrypted', name);
    if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
      throw invalidPackage('the entry is a symbolic link', name);
    }
    // Every record is checked, the skipped ones too: a directory's record can hide data as well.
    spans.push(await checkLocalRecord(zip, entry, name));
    if (name.endsWith('/')) {
      // Some writers deflate nothing into the two bytes of an empty deflate stream.
      if (entry.uncompressedSize !== 0 || entry.compressedSize > 2)
        throw invalidPackage('a directory carries data', name);
      continue;
    }
    if (isJunk(name)) continue;
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
  const overlap = overlapProblem(spans, centralDirectoryOffset);
  if (overlap) throw invalidPackage(overlap.problem, overlap.name);
  return entries;
}

const DATA_DESCRIPTOR_SIGNATURE = 0x08074b50;

/** Reads `length` bytes at `position`; short reads past the end are an error. */
function readAt(zip: ZipFile, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  return new Promise((resolve, reject) => {
    if (position + length > zip.fileSize) {
      reject(new Error(`reads past the end of the archive (${position + length} > ${zip.fileSize})`));
      return;
    }
    // The reader yauzl reads with; its typings leave it out.
    const { reader } = zip as unknown as { reader: RandomAccessReader };
    reader.read(buffer, 0, length, position, (error) => (error ? reject(error) : resolve(buffer)));
  });
}

/** Compares the entry's local header with its central record; answers the bytes the record spans. */
async function checkLocalRecord(zip: ZipFile, entry: Entry, name: string): Promise<RecordSpan> {
  let local: LocalFileHeader;
  try {
    // Also refuses data that would end past the archive, whatever a ZIP64 size claims.
    local = await zip.readLocalFileHeaderPromise(entry);
  } catch (error) {
    throw asPackageError(error, name);
  }
  const localExtras = parseExtraFields(local.extraField);
  const problem =
    (localExtras === null ? 'its local extra fields cannot be read' : null) ??
    localHeaderProblem(
      {
        name: entry.fileNameRaw,
        flags: entry.generalPurposeBitFlag,
        method: entry.compressionMethod,
        crc32: entry.crc32,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
      },
      {
        name: local.fileName,
        flags: local.generalPurposeBitFlag,
        method: local.compressionMethod,
        crc32: local.crc32,
        compressedSize: local.compressedSize,
        uncompressedSize: local.uncompressedSize,
      },
    ) ??
    unicodePathProblem(name, localExtras ?? []);
  if (problem) throw invalidPackage(problem, name);
  let end = local.fileDataStart + entry.compressedSize;
  if ((entry.generalPurposeBitFlag & 0x8) !== 0) {
    // CRC and two sizes, 4 or 8 bytes each, after an optional signature.
    const sizes = hasZip64Extra(entry.extraFields) ? 16 : 8;
    const signature = (
      await readAt(zip, end, 4).catch((error: unknown) => {
        throw asPackageError(error, name);
      })
    ).readUInt32LE(0);
    end += (signature === DATA_DESCRIPTOR_SIGNATURE ? 4 : 0) + 4 + sizes;
  }
  return { name, start: entry.relativeOffsetOfLocalHeader, end };
}
