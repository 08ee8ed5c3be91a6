import { parseDateOrDateTime } from '../../../shared/time';
import type { StoredTimelineEntry } from '../timeline/timeline-entry';
import { invalidPackage } from './import-errors';
import type { PackageScan } from './package-scan';

/**
 * What the upstream defaults (docs/contract/package-format.md#upstream-packages) take from the
 * documents or, failing them, the timeline.
 */
export interface ScanDefaults {
  createdAt: number;
  action: string;
}

/**
 * The checks of one package scan that need no store, made as its timeline streams past once:
 * order entry by entry, then the documents held to what the whole timeline said
 * (docs/contract/package-format.md#checks).
 * `violationIds` collects the package's violation ids across its scans, which must not repeat.
 */
export class ScanCheck {
  count = 0;
  /** A copy: the chunk's entries are reused for the next chunk (TimelineSource.read). */
  first: StoredTimelineEntry | null = null;
  private sum = 0n;
  private previous = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly scan: PackageScan,
    private readonly violationIds: Set<string>,
  ) {}

  /** Checks the next chunk of the timeline, in order. */
  take(chunk: readonly StoredTimelineEntry[]): void {
    if (this.first === null && chunk[0]) this.first = { ...chunk[0] };
    // A long timeline of large counts can leave a double's exact range, so the chunk's sum is
    // carried over into a BigInt before it could; a BigInt per entry cost more than the check.
    let partial = 0;
    for (const entry of chunk) {
      if (entry.timestamp < this.previous) {
        const { timeline } = this.scan;
        throw invalidPackage(
          `${timeline.position(this.count)}: timestamp is earlier than the entry before it`,
          timeline.entry,
        );
      }
      this.previous = entry.timestamp;
      this.count += 1;
      if (partial > Number.MAX_SAFE_INTEGER - entry.tokens) {
        this.sum += BigInt(partial);
        partial = 0;
      }
      partial += entry.tokens;
    }
    this.sum += BigInt(partial);
  }

  /**
   * created_at and action, from the scan document or else the first entry: known once the first
   * chunk was taken, or the timeline turned out empty.
   */
  defaults(): ScanDefaults {
    const { scan: document, scanEntry, evidenceEntry } = this.scan;
    const createdAt = document ? parseDateOrDateTime(document.created_at) : this.first?.timestamp;
    if (createdAt === null) throw invalidPackage('created_at must be an ISO 8601 date-time', scanEntry!);
    const action = document?.action ?? this.first?.action;
    if (createdAt === undefined || action === undefined) {
      throw invalidPackage(
        document
          ? 'the scan has no action and an empty timeline to take it from'
          : 'no scan file and an empty timeline: created_at and action are unknown',
        evidenceEntry,
      );
    }
    return { createdAt, action };
  }

  /** The checks that need the whole timeline, once it has all been taken. */
  finish(): void {
    const { evidence, evidenceEntry: where, violations } = this.scan;
    if (evidence.request_count !== this.count) {
      throw invalidPackage(
        `evidence.request_count is ${evidence.request_count} but the timeline has ${this.count} entries`,
        where,
      );
    }
    if (BigInt(evidence.total_tokens) !== this.sum) {
      throw invalidPackage(
        `evidence.total_tokens is ${evidence.total_tokens} but the timeline's tokens sum to ${this.sum}`,
        where,
      );
    }
    for (const violation of violations) {
      if (violation.timeline_index !== null && violation.timeline_index >= this.count) {
        throw invalidPackage(
          `violation ${violation.id}: timeline_index ${violation.timeline_index} is past the timeline's ${this.count} entries`,
          where,
        );
      }
      if (this.violationIds.has(violation.id)) {
        throw invalidPackage(`violation id ${violation.id} appears twice in the package`, where);
      }
      this.violationIds.add(violation.id);
    }
    this.defaults();
  }
}
