import type { TokenBreakdown, Violation } from '../../../shared/api/scans';
import type { StoredTimelineEntry } from '../timeline/timeline-entry';
import { invalidPackage } from './import-errors';
import type { EvidenceDocument, ScanDocument } from './read-documents';
import type { InflateBudget } from './zip/inflate-guard';

/** The evidence fields of a package scan; the timeline comes through `PackageScan.timeline`. */
export type PackageEvidence = Omit<EvidenceDocument['evidence'], 'timeline'>;

/** Where a scan's timeline is, and how to read it. */
export interface TimelineSource {
  /** The entry holding it, which errors about an entry name. */
  entry: string;
  /** How errors name the entry at `index` (`line 3`, `evidence.timeline.2`). */
  position(index: number): string;
  /**
   * The entries in chunks, each one checked on its own; read afresh on every call. A chunk and
   * its entries are the reader's until it asks for the next one, which may reuse them: copy what
   * is kept longer.
   */
  read(budget: InflateBudget): AsyncIterable<StoredTimelineEntry[]>;
}

/**
 * One scan of a package, whatever its format: its documents checked and cross-checked, with the
 * upstream defaults still to apply, and its timeline as a source. What a format adapter
 * (formats/*.adapter.ts) yields, and all the rest of an import consumes.
 */
export interface PackageScan {
  id: string;
  /** The evidence document's entry: errors about the scan as a whole name it. */
  evidenceEntry: string;
  scanEntry: string | null;
  scan: ScanDocument | null;
  evidence: PackageEvidence;
  violations: Violation[];
  tokenBreakdown: TokenBreakdown;
  timeline: TimelineSource;
  /** What made the package, where it says (a format-1 manifest's `generator`); kept with the scan. */
  origin: string | null;
}

export const sameViolations = (a: readonly Violation[], b: readonly Violation[]): boolean =>
  a.length === b.length &&
  a.every(
    (v, i) =>
      v.id === b[i]!.id &&
      v.rule === b[i]!.rule &&
      v.severity === b[i]!.severity &&
      v.message === b[i]!.message &&
      v.timeline_index === b[i]!.timeline_index,
  );

/** A scan's documents as a format found them, checked against each other the same way for all. */
export function packageScan(parts: {
  id: string;
  evidenceEntry: string;
  evidence: EvidenceDocument;
  scanEntry: string | null;
  scan: ScanDocument | null;
  timeline: TimelineSource;
  origin: string | null;
}): PackageScan {
  const { id, evidenceEntry, scanEntry, scan } = parts;
  const { scan_id: evidenceId, evidence } = parts.evidence;
  if (evidenceId !== id) throw invalidPackage(`scan_id is ${evidenceId}, expected ${id}`, evidenceEntry);
  if (scan && scanEntry && scan.id !== id) throw invalidPackage(`id is ${scan.id}, expected ${id}`, scanEntry);
  if (scan && evidence.violations && !sameViolations(scan.violations, evidence.violations)) {
    throw invalidPackage(`evidence.violations differ from the violations in ${scanEntry}`, evidenceEntry);
  }
  const { timeline: _inline, ...fields } = evidence;
  return {
    id,
    evidenceEntry,
    scanEntry,
    scan,
    evidence: fields,
    violations: evidence.violations ?? scan?.violations ?? [],
    tokenBreakdown: evidence.token_breakdown ?? {},
    timeline: parts.timeline,
    origin: parts.origin,
  };
}
