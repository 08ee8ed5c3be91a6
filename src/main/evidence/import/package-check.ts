import { parseDateOrDateTime } from '../../../shared/time';
import { invalidPackage, type InflateBudget } from './package-archive';
import type { StoredEntry } from './package-documents';
import type { PackageScan } from './package-scan';

/** A package scan that passed every check that needs no store, with what storing it needs. */
export interface CheckedScan {
  scan: PackageScan;
  /** The first timeline entry, where an upstream scan takes its defaults from. */
  first: StoredEntry | null;
  count: number;
}

/**
 * Pass 1 for one scan, without the store: reads the whole timeline once, checking its order, and
 * holds the documents to what the timeline says (SPEC.md §8). `violationIds` collects the
 * package's violation ids across its scans, which must not repeat.
 */
export async function checkPackageScan(
  scan: PackageScan,
  budget: InflateBudget,
  violationIds: Set<string>,
): Promise<CheckedScan> {
  const { timeline } = scan;
  let count = 0;
  let sum = 0n;
  let previous = Number.NEGATIVE_INFINITY;
  let first: StoredEntry | null = null;
  for await (const chunk of timeline.read(budget)) {
    first ??= chunk[0] ?? null;
    // A long timeline of large counts can leave a double's exact range, so the chunk's sum is
    // carried over into a BigInt before it could; a BigInt per entry cost more than the check.
    let partial = 0;
    for (const entry of chunk) {
      if (entry.timestamp < previous) {
        throw invalidPackage(
          `${timeline.position(count)}: timestamp is earlier than the entry before it`,
          timeline.entry,
        );
      }
      previous = entry.timestamp;
      count += 1;
      if (partial > Number.MAX_SAFE_INTEGER - entry.tokens) {
        sum += BigInt(partial);
        partial = 0;
      }
      partial += entry.tokens;
    }
    sum += BigInt(partial);
  }
  const where = scan.evidenceEntry;
  if (scan.evidence.request_count !== count) {
    throw invalidPackage(
      `evidence.request_count is ${scan.evidence.request_count} but the timeline has ${count} entries`,
      where,
    );
  }
  if (BigInt(scan.evidence.total_tokens) !== sum) {
    throw invalidPackage(
      `evidence.total_tokens is ${scan.evidence.total_tokens} but the timeline's tokens sum to ${sum}`,
      where,
    );
  }
  for (const violation of scan.violations) {
    if (violation.timeline_index !== null && violation.timeline_index >= count) {
      throw invalidPackage(
        `violation ${violation.id}: timeline_index ${violation.timeline_index} is past the timeline's ${count} entries`,
        where,
      );
    }
    if (violationIds.has(violation.id))
      throw invalidPackage(`violation id ${violation.id} appears twice in the package`, where);
    violationIds.add(violation.id);
  }
  if (!first && (!scan.scan || scan.scan.action === undefined)) {
    throw invalidPackage(
      scan.scan
        ? 'the scan has no action and an empty timeline to take it from'
        : 'no scan file and an empty timeline: created_at and action are unknown',
      where,
    );
  }
  if (scan.scan && parseDateOrDateTime(scan.scan.created_at) === null) {
    throw invalidPackage('created_at must be an ISO 8601 date-time', scan.scanEntry!);
  }
  return { scan, first, count };
}
