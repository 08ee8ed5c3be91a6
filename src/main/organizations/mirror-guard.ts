import type { Executor } from '../db/index';
import { conflict } from '../domain-error';
import { findMirroringRemote } from './organizations.repository';

/**
 * Refuses a change to an organization or team mirrored from a remote: the remote owns it, and the
 * next sync would undo the change (docs/contract/api.md#mirrored-organizations-and-teams). Called
 * after the role check, so that who may not see or change it learns nothing more. Submitting a
 * scan into one is not a change to it, and stays allowed.
 */
export async function refuseMirrored(db: Executor, of: { organizationId: string; teamId?: string }): Promise<void> {
  const remote = await findMirroringRemote(db, of);
  if (remote !== undefined) throw conflict(`managed by remote ${remote}: change it there`);
}
