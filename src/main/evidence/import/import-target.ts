import type { Violation } from '../../../shared/api/scans';
import type { Executor, ScanRow } from '../../db/index';
import { DomainError } from '../../domain-error';
import { derivedScanId } from './import-ids';

// Placing a package's ids: which id a package scan is stored under (its own, or one derived from
// the importer's), the scan already there if any, and the violation ids that are taken.

/** Where an import stores a package scan, and the scan already there, if any. */
export interface ImportTarget {
  id: string;
  /** Stored under an id derived from the importer and the package id, not under the package id. */
  derived: boolean;
  existing: ScanRow | undefined;
}

/**
 * docs/contract/package-format.md#imported-ids: a package id names a scan the importer can see
 * (docs/contract/auth.md#visibility: their own, or one of an organization they own or administer),
 * which the package is compared with; or
 * else the scan is stored under derivedScanId(user, id). A scan with the package id that the
 * importer cannot see changes nothing: it is never compared, never blocks, and both cases run the
 * same two lookups, made beforehand for the whole package (package-lookups.repository.ts): `literal`
 * is the scan the importer can see under the package id, `derived` the scan stored under the id
 * derived for them.
 */
export function placedTarget(
  userId: string,
  packageId: string,
  entry: string,
  literal: ScanRow | undefined,
  derived: ScanRow | undefined,
): ImportTarget {
  if (literal) return { id: packageId, derived: false, existing: literal };
  const id = derivedScanId(userId, packageId);
  const existing = derived;
  // Nobody can import under another user's derived id; only a scan imported before the rule can hold one.
  if (existing && existing.submitted_by !== userId) {
    throw new DomainError('conflict', `scan ${packageId} cannot be stored: the id it would take is in use`, [
      { field: 'scan_id', entry, message: `${packageId}: the id it would be stored under is in use` },
    ]);
  }
  return { id, derived: true, existing };
}

/**
 * Violation ids are unique across the store. A taken one is named by the package's id for it,
 * never by the scan that holds it, which may be another user's.
 */
export async function refuseTakenViolationIds(
  trx: Executor,
  packageScanId: string,
  entry: string,
  violations: readonly Violation[],
  packageViolations: readonly Violation[],
): Promise<void> {
  for (let start = 0; start < violations.length; start += 500) {
    const ids = violations.slice(start, start + 500).map((v) => v.id);
    const taken = await trx.selectFrom('violations').select('id').where('id', 'in', ids).executeTakeFirst();
    if (taken) {
      const packageId = packageViolations[violations.findIndex((v) => v.id === taken.id)]!.id;
      const message = `violation ${packageId} of scan ${packageScanId}: the id it would be stored under is in use`;
      throw new DomainError('conflict', message, [{ field: 'violations', entry, message }]);
    }
  }
}

/** refuseTakenViolationIds against `taken`, the package's violation ids found taken beforehand. */
export function refuseTakenIn(
  taken: ReadonlySet<string>,
  packageScanId: string,
  entry: string,
  violations: readonly Violation[],
  packageViolations: readonly Violation[],
): void {
  if (taken.size === 0) return;
  const at = violations.findIndex((v) => taken.has(v.id));
  if (at < 0) return;
  const message = `violation ${packageViolations[at]!.id} of scan ${packageScanId}: the id it would be stored under is in use`;
  throw new DomainError('conflict', message, [{ field: 'violations', entry, message }]);
}
