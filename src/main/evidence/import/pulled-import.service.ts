import { type Db, type Executor, withCheckpointsHeld } from '../../db/index';
import { DomainError } from '../../domain-error';
import { ScanFeed, type ScanNotice } from '../../live/scan-feed';
import { toScanNotice } from '../../scans/scan-mapping';
import { isFormat1, readFormat1 } from './formats/format-1.adapter';
import { readUpstream, type ExtraDocument } from './formats/upstream.adapter';
import type { ImportLimits } from './import-limits';
import type { PackageScan } from './package-scan';
import { ImportRaced } from './store-package';
import { storePulledScans, type PulledImportResult, type PulledPlacement } from './store-pulled';
import type { InflateBudget } from './zip/inflate-guard';
import { PackageArchive } from './zip/package-archive';

export type { PulledImportResult, PulledPlacement } from './store-pulled';
export type { ExtraDocument } from './formats/upstream.adapter';

/** Runs of a pull whose closing transaction found a scan stored or gone meanwhile. */
const MAX_RUNS = 3;

export interface PulledImportOptions {
  /** Runs last inside the transaction that stores the package (a sync saves its cursor there). */
  closing?: (trx: Executor) => Promise<void>;
  /**
   * Documents read as if they were entries of the archive (a package without a manifest only):
   * the upstream's get-scan answer, which stands in for a scan document the download lacks (a
   * download that has its own keeps it: the sync cannot know the upstream's layout beforehand).
   */
  extraDocuments?: readonly ExtraDocument[];
}

/**
 * Stores a package pulled from a remote (docs/contract/api.md#pulled-scans) as `placement` says:
 * read by the same adapters and held to the same checks as an import, all or nothing. A refused
 * package throws (DomainError `invalid_package` or `conflict`) and changes nothing, `closing`
 * never run. Scans already pulled are compared: unchanged, or changed (their violations, or the
 * whole scan, replaced); one of our own pushes coming back only updates the push log (echoed).
 */
export async function importPulledPackage(
  db: Db,
  archivePath: string,
  limits: ImportLimits,
  placement: PulledPlacement,
  options: PulledImportOptions = {},
): Promise<PulledImportResult> {
  const archive = await PackageArchive.open(archivePath, limits);
  try {
    const budget: InflateBudget = { inflated: 0 };
    // A format-1 package is whole by its manifest: documents beside it are not read.
    const scans = isFormat1(archive)
      ? await readFormat1(archive, budget)
      : await readUpstream(archive, budget, options.extraDocuments);
    return await importPulledScans(db, scans, placement, options.closing, budget);
  } finally {
    archive.close();
  }
}

/**
 * Stores scans already read and checked as a package's documents are (a sync's dense answer,
 * sync/pull/scan-line.ts), as importPulledPackage stores a package's: all or nothing, `closing`
 * last in the transaction, compared with what was pulled before.
 */
export async function importPulledScans(
  db: Db,
  scans: readonly PackageScan[],
  placement: PulledPlacement,
  closing: (trx: Executor) => Promise<void> = async () => undefined,
  budget: InflateBudget = { inflated: 0 },
): Promise<PulledImportResult> {
  const feed = ScanFeed.of(db);
  for (let run = 1; ; run++) {
    const stored: ScanNotice[] = [];
    const attempt: InflateBudget = { inflated: budget.inflated };
    try {
      const result = await withCheckpointsHeld(db, () =>
        storePulledScans(
          db,
          placement,
          scans,
          attempt,
          closing,
          feed.heard ? (row) => stored.push(toScanNotice(row)) : undefined,
        ),
      );
      feed.publish(stored);
      return result;
    } catch (error) {
      if (!(error instanceof ImportRaced)) throw error;
      if (run >= MAX_RUNS) {
        throw new DomainError('conflict', 'the package raced concurrent writes of the same scans; pull it again', [
          { message: error.message },
        ]);
      }
    }
  }
}
