import type { ScanSummary } from '../../shared/api/scans';
import type { Db } from '../db/database';
import { listOrganizationsOfUser } from '../organizations/organizations.repository';
import type { ScanNotice } from './scan-feed';

const MANAGING = new Set(['owner', 'admin']);

/**
 * The notices `userId` may hear of, as list rows (SPEC.md §2: the scans they submitted or
 * imported, and their organizations' scans where they are an owner or admin). Roles are read
 * afresh per delivery, so a revoked admin stops hearing at once; only when a notice needs them.
 */
export async function visibleNotices(db: Db, userId: string, notices: readonly ScanNotice[]): Promise<ScanSummary[]> {
  let managed: Set<string> | undefined;
  const visible: ScanSummary[] = [];
  for (const { submitted_by, ...summary } of notices) {
    if (submitted_by !== userId) {
      if (summary.organization_id === null) continue;
      managed ??= new Set(
        (await listOrganizationsOfUser(db, userId)).filter((o) => MANAGING.has(o.role)).map((o) => o.id),
      );
      if (!managed.has(summary.organization_id)) continue;
    }
    visible.push(summary);
  }
  return visible;
}
