// Every limit of an import: what a package may hold (docs/contract/limits.md#packages), how big
// its body may be (docs/contract/limits.md#requests), and what an upload may cost the server
// besides (docs/contract/limits.md#concurrency-and-time). Tests lower them to stay fast.

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** What one package may hold and inflate to. */
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

/** How many imports may run at once in one server process: per user, and in all. */
export interface ImportSlotLimits {
  perUser: number;
  total: number;
}

export const DEFAULT_IMPORT_SLOTS: ImportSlotLimits = { perUser: 2, total: 4 };

/** What an upload may cost the server besides its size: see docs/security.md, Uploads. */
export interface UploadLimits {
  /** An upload that sends nothing for this long is ended and its temp file removed. */
  bodyIdleMs: number;
  /** Imports under way at once, per user and in all (this server process). */
  slots: ImportSlotLimits;
  /** Where bodies are spooled; the system's temp directory unless a test watches its own. */
  spoolDir: string | null;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { bodyIdleMs: 30_000, slots: DEFAULT_IMPORT_SLOTS, spoolDir: null };

/** Every limit of POST /v1/evidence/imports. */
export type ImportRouteLimits = ImportLimits & UploadLimits;
