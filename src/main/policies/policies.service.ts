import type { Policy } from '../../shared/api/policies';
import { type Db, inTransaction } from '../db/index';
import { currentTimestamp } from '../../shared/time';
import { requireRole } from '../organizations/access';
import { refuseMirrored } from '../organizations/mirror-guard';
import { findPolicy, savePolicy } from './policies.repository';

/** Any member reads the organization's policy (docs/contract/auth.md#roles). */
export async function readPolicy(db: Db, organizationId: string, userId: string): Promise<Policy> {
  await requireRole(db, organizationId, userId, 'member');
  return findPolicy(db, organizationId);
}

/** Owners and admins replace it whole; it applies to scans submitted from then on. */
export function replacePolicy(db: Db, organizationId: string, userId: string, policy: Policy): Promise<Policy> {
  return inTransaction(db, async (trx) => {
    await requireRole(trx, organizationId, userId, 'admin');
    await refuseMirrored(trx, { organizationId });
    await savePolicy(trx, organizationId, policy, currentTimestamp());
    return findPolicy(trx, organizationId);
  });
}
