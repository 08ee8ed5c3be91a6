import { VIOLATION_ENTRIES_MAX, type ViolationEntries } from '../../../../shared/api/scan-violations';

/** Violations per page the list fetches as it scrolls; a page is also the unit TanStack Query caches. */
export const VIOLATION_PAGE_SIZE = 500;

/**
 * Per-entry violation counts come in fixed chunks of timeline indexes, the largest the server
 * answers: every page of entries and every chart window that falls in a chunk shares its request.
 */
export const ENTRY_CHUNK = VIOLATION_ENTRIES_MAX;

/** The chunks (in order, once each) that hold the given timeline indexes. */
export function entryChunks(indexes: Iterable<number>): number[] {
  const chunks = new Set<number>();
  for (const index of indexes) chunks.add(Math.floor(index / ENTRY_CHUNK));
  return [...chunks].sort((a, b) => a - b);
}

/** Timeline index → violations pointing at it, from the chunks that have arrived. */
export function mergeEntryCounts(chunks: readonly (ViolationEntries | undefined)[]): Map<number, number> {
  const byEntry = new Map<number, number>();
  for (const chunk of chunks) {
    for (const entry of chunk?.entries ?? []) byEntry.set(entry.index, entry.violations);
  }
  return byEntry;
}
