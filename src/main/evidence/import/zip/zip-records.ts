// The places where two ZIP readers can disagree about one archive: the central directory (what
// yauzl reads) against the local records (what streaming unzippers read), names against their
// Info-ZIP Unicode-path extras, and records that share bytes. An archive that means one thing to
// us and another to the tool a user checks it with is refused, whatever it would import as.
// Pure decisions only; central-directory.ts and local-records.ts do the reading.

/** An extra field: a tag and its bytes. */
export interface ExtraField {
  id: number;
  data: Uint8Array;
}

const UNICODE_PATH = 0x7075;
const ZIP64 = 0x0001;

/** The extra fields of a local header, in order; null when the lengths do not add up. */
export function parseExtraFields(raw: Uint8Array): ExtraField[] | null {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const fields: ExtraField[] = [];
  let at = 0;
  while (at < raw.length) {
    if (at + 4 > raw.length) return null;
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (at + 4 + size > raw.length) return null;
    fields.push({ id, data: raw.subarray(at + 4, at + 4 + size) });
    at += 4 + size;
  }
  return fields;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Why the Unicode-path extras disagree with the name the header gives, or null. yauzl prefers
 * the extra when its CRC matches the header name, other tools always or never do: so any extra
 * must name exactly the header's name, and one that cannot be read is refused too.
 */
export function unicodePathProblem(headerName: string, fields: readonly ExtraField[]): string | null {
  for (const field of fields) {
    if (field.id !== UNICODE_PATH) continue;
    if (field.data.length < 5 || field.data[0] !== 1) return 'its Unicode-path extra field cannot be read';
    let name: string;
    try {
      name = utf8.decode(field.data.subarray(5));
    } catch {
      return 'its Unicode-path extra field is not UTF-8';
    }
    if (name !== headerName) return `its Unicode-path extra field names another file (${JSON.stringify(name)})`;
  }
  return null;
}

export const hasZip64Extra = (fields: readonly ExtraField[]): boolean => fields.some((field) => field.id === ZIP64);

/** What the central directory says about an entry, and what its local header says. */
export interface RecordHeader {
  name: Uint8Array;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
}

const DATA_DESCRIPTOR = 0x8;
const ENCRYPTED = 0x1;
const UTF8_NAMES = 0x800;
/** A 32-bit size field saying "see the ZIP64 extra". */
const ZIP64_MARK = 0xffffffff;

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Why the local header disagrees with the central directory, or null. */
export function localHeaderProblem(central: RecordHeader, local: RecordHeader): string | null {
  if (!sameBytes(central.name, local.name)) return 'its local header names another file';
  const compared = DATA_DESCRIPTOR | ENCRYPTED | UTF8_NAMES;
  if ((central.flags & compared) !== (local.flags & compared)) return 'its local header has other flags';
  if (central.method !== local.method) return 'its local header gives another compression method';
  // With a data descriptor the local header may leave CRC and sizes at zero.
  if ((local.flags & DATA_DESCRIPTOR) === 0) {
    if (local.crc32 >>> 0 !== central.crc32 >>> 0) return 'its local header gives another CRC-32';
    for (const field of ['compressedSize', 'uncompressedSize'] as const) {
      if (local[field] !== ZIP64_MARK && local[field] !== central[field]) {
        return 'its local header gives other sizes';
      }
    }
  }
  return null;
}

/** The bytes one entry occupies: its local header, its data and its data descriptor. */
export interface RecordSpan {
  name: string;
  start: number;
  end: number;
}

/**
 * The first record that shares bytes with another or runs into the central directory, with why,
 * or null. Records that share data are how one compressed stream is inflated many times (a bomb
 * that no per-entry ratio sees), and a record inside another's data is a second archive in the first.
 */
export function overlapProblem(
  spans: readonly RecordSpan[],
  centralDirectoryOffset: number,
): { name: string; problem: string } | null {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  for (let i = 0; i < sorted.length; i++) {
    const span = sorted[i]!;
    const next = sorted[i + 1];
    if (next && next.start < span.end) {
      return { name: next.name, problem: `its record overlaps the record of ${span.name}` };
    }
    if (span.end > centralDirectoryOffset) {
      return { name: span.name, problem: 'its record runs into the central directory' };
    }
  }
  return null;
}
