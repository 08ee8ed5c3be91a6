import { getFileNameLowLevel, type Entry, type ZipFile } from 'yauzl';
import { invalidPackage } from '../import-errors';
import type { ImportLimits } from '../import-limits';
import { isJunk, nameProblem } from './entry-names';
import { checkLocalRecord } from './local-records';
import { overlapProblem, unicodePathProblem, type RecordSpan } from './zip-records';

// The central directory, checked whole when the archive is opened: the entries that matter, by
// name, or the refusal of the package.

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** The entries worth reading, by name, in archive order: no directories, no junk. */
export async function readCentralDirectory(zip: ZipFile, limits: ImportLimits): Promise<Map<string, Entry>> {
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
