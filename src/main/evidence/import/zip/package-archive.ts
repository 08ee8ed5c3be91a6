import { pipeline, type Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { openPromise, type Entry, type ZipFile } from 'yauzl';
import { JsonDepthError, JsonDepthGuard } from '../../../../shared/json-depth';
import { JsonlLineError, JsonlLineSplitter, type LineRun } from '../../jsonl/line-splitter';
import { asPackageError, invalidPackage, lineError } from '../import-errors';
import type { ImportLimits } from '../import-limits';
import { readCentralDirectory } from './central-directory';
import { INFLATE_CHUNK_BYTES, InflateGuard, RawCounter, type EntryDigest, type InflateBudget } from './inflate-guard';

/** The smallest inflate buffer: zlib's own default. */
const SMALL_CHUNK_BYTES = 16 * 1024;

const NOT_A_ZIP = 'not a ZIP archive, or only part of one (a download or copy cut short)';

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
    // A small entry gets a buffer its size (the central directory's, which the guard holds it
    // to): a package of thousands of small documents would allocate 256 KiB for each.
    const chunkSize = Math.min(INFLATE_CHUNK_BYTES, Math.max(SMALL_CHUNK_BYTES, entry.uncompressedSize + 1));
    if (entry.compressionMethod === 8) pipeline(source, raw, createInflateRaw({ chunkSize }), guard, done);
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
