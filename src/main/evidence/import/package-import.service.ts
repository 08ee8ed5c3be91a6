import type { ImportResult } from '../../../shared/api/evidence';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { ScanFeed, type ScanNotice } from '../../live/scan-feed';
import { toScanNotice } from '../../scans/scan-mapping';
import { isFormat1, readFormat1 } from './formats/format-1.adapter';
import { readUpstream } from './formats/upstream.adapter';
import { PackageArchive, type ImportLimits, type InflateBudget } from './package-archive';
import { checkPackageScan, type CheckedScan } from './package-check';
import { storePackageScans } from './package-store';

/**
 * Imports an evidence package (SPEC.md §8) from a spooled ZIP. A format adapter reads the
 * package's documents, each parsed once, into package scans; pass 1 checks each scan and its
 * whole timeline without the store; pass 2 reads the timelines again inside one transaction and
 * stores, so the store is held only for the writing and a bad package changes nothing.
 */
export async function importEvidencePackage(
  db: Db,
  userId: string,
  archivePath: string,
  limits: ImportLimits,
): Promise<ImportResult> {
  const archive = await PackageArchive.open(archivePath, limits);
  try {
    const checking: InflateBudget = { inflated: 0 };
    const scans = await (isFormat1(archive) ? readFormat1 : readUpstream)(archive, checking);
    const violationIds = new Set<string>();
    const checked: CheckedScan[] = [];
    for (const scan of scans) checked.push(await checkPackageScan(scan, checking, violationIds));
    // Read committed: the import's only rules across servers are keys, and a key taken by a
    // concurrent import makes inTransaction run it again, which then finds that import's scan.
    const { result, stored } = await inTransaction(
      db,
      async (trx) => {
        const stored: ScanNotice[] = [];
        const result = await storePackageScans(db, trx, userId, checked, { inflated: 0 }, (row) =>
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
