import type { ImportResult } from '../../../shared/api/evidence';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { ScanFeed, type ScanNotice } from '../../live/scan-feed';
import { toScanNotice } from '../../scans/scan-mapping';
import { isFormat1, readFormat1 } from './formats/format-1.adapter';
import { readUpstream } from './formats/upstream.adapter';
import { PackageArchive, type ImportLimits, type InflateBudget } from './package-archive';
import { storePackageScans } from './package-store';

/**
 * Imports an evidence package (SPEC.md §8) from a spooled ZIP. A format adapter reads the
 * package's documents, each parsed once, into package scans; then, inside one transaction, each
 * timeline is read once, checked and stored in the same pass (package-store.ts). Any refusal rolls
 * the transaction back, so a bad package changes nothing.
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
    // Read committed: the import's only rules across servers are keys, and a key taken by a
    // concurrent import makes inTransaction run it again, which then finds that import's scan.
    const { result, stored } = await inTransaction(
      db,
      async (trx) => {
        const stored: ScanNotice[] = [];
        // A PostgreSQL retry reads the timelines again: count from the documents' bytes each time.
        const attempt: InflateBudget = { inflated: budget.inflated };
        const result = await storePackageScans(db, trx, userId, scans, attempt, (row) =>
          stored.push(toScanNotice(row)),
        );
        return { result, stored };
      },
      { isolation: 'read committed' },
    );
    ScanFeed.of(db).publish(stored);
    return result;
  } finally {
    archive.close();
  }
}
