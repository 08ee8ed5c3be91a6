import type { ImportResult } from '../../../shared/api/evidence';
import { type Db, withCheckpointsHeld } from '../../db/index';
import { DomainError } from '../../domain-error';
import { ScanFeed, type ScanNotice } from '../../live/scan-feed';
import { toScanNotice } from '../../scans/scan-mapping';
import { isFormat1, readFormat1 } from './formats/format-1.adapter';
import { readUpstream } from './formats/upstream.adapter';
import type { ImportLimits } from './import-limits';
import { ImportRaced, storePackageScans } from './store-package';
import type { InflateBudget } from './zip/inflate-guard';
import { PackageArchive } from './zip/package-archive';

/** Runs of an import whose closing transaction found a scan stored or gone meanwhile. */
const MAX_RUNS = 3;

/**
 * Imports an evidence package (docs/contract/package-format.md#import) from a spooled ZIP. A
 * format adapter reads the package's documents, each parsed once, into package scans; then each
 * timeline is read once, checked and staged in the same pass, and one short transaction stores the
 * scans (store-package.ts). Any refusal deletes what was staged, so a bad package changes nothing.
 */
export async function importEvidencePackage(
  db: Db,
  userId: string,
  archivePath: string,
  limits: ImportLimits,
): Promise<ImportResult> {
  const archive = await PackageArchive.open(archivePath, limits);
  try {
    const budget: InflateBudget = { inflated: 0 };
    const scans = await (isFormat1(archive) ? readFormat1 : readUpstream)(archive, budget);
    for (let run = 1; ; run++) {
      const stored: ScanNotice[] = [];
      // Another run reads the timelines again: count from the documents' bytes each time.
      const attempt: InflateBudget = { inflated: budget.inflated };
      try {
        // Staged in many commits: the log is copied back once, after them, not while they run.
        const result = await withCheckpointsHeld(db, () =>
          storePackageScans(db, userId, scans, attempt, (row) => stored.push(toScanNotice(row))),
        );
        ScanFeed.of(db).publish(stored);
        return result;
      } catch (error) {
        if (!(error instanceof ImportRaced)) throw error;
        if (run >= MAX_RUNS) {
          throw new DomainError('conflict', 'the package raced concurrent imports of the same scans; send it again', [
            { message: error.message },
          ]);
        }
      }
    }
  } finally {
    archive.close();
  }
}
