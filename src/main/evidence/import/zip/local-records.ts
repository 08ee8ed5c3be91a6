import type { Entry, LocalFileHeader, RandomAccessReader, ZipFile } from 'yauzl';
import { asPackageError, invalidPackage } from '../import-errors';
import {
  hasZip64Extra,
  localHeaderProblem,
  parseExtraFields,
  unicodePathProblem,
  type RecordSpan,
} from './zip-records';

// Each entry's local record, read and held to its central record: where two ZIP readers could
// see two different files (zip-records.ts decides).

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
export async function checkLocalRecord(zip: ZipFile, entry: Entry, name: string): Promise<RecordSpan> {
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
