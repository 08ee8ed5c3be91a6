import type { Role } from '../../shared/api/common';
import { type Db, type Executor, inTransaction } from '../db/index';
import type { Member, Organization } from '../../shared/api/organizations';
import { currentTimestamp } from '../../shared/time';
import { newId } from '../ids';
import { conflict, forbidden, notFound } from '../domain-error';
import { findUserById } from '../users/users.repository';
import { requireRole } from './access';
import { refuseMirrored } from './mirror-guard';
import * as repo from './organizations.repository';

async function getOrganization(db: Executor, id: string): Promise<Organization> {
  const row = await repo.findOrganization(db, id);
  if (!row) throw notFound('organization');
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at,
    member_count: Number(row.member_count),
    plan: row.plan,
  };
}

export async function readOrganization(db: Db, userId: string, id: string): Promise<Organization> {
  await requireRole(db, id, userId, 'member');
  return getOrganization(db, id);
}

/**
 * The creator becomes the owner; a new organization starts with the empty policy
 * (docs/contract/policies.md#policy-document).
 */
export async function createOrganization(db: Db, userId: string, name: string): Promise<Organization> {
  const id = newId('organization');
  const at = currentTimestamp();
  return inTransaction(db, async (trx) => {
    await repo.insertOrganization(trx, { id, name: name.trim(), plan: 'free', created_at: at });
    await repo.upsertMembership(trx, { organization_id: id, user_id: userId, role: 'owner', joined_at: at });
    await repo.insertDefaultPolicy(trx, id, at);
    return getOrganization(trx, id);
  });
}

export async function renameOrganization(db: Db, userId: string, id: string, name: string): Promise<Organization> {
  return inTransaction(db, async (trx) => {
    await requireRole(trx, id, userId, 'admin');
    await refuseMirrored(trx, { organizationId: id });
    await repo.renameOrganization(trx, id, name.trim());
    return getOrganization(trx, id);
  });
}

export async function deleteOrganization(db: Db, userId: string, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await requireRole(trx, id, userId, 'owner');
    await refuseMirrored(trx, { organizationId: id });
    await repo.deleteOrganization(trx, id);
  });
}

export async function listMembers(db: Db, userId: string, id: string): Promise<Member[]> {
  await requireRole(db, id, userId, 'member');
  return repo.listMembers(db, id);
}

async function findMember(db: Executor, organizationId: string, userId: string): Promise<Member> {
  const member = (await repo.listMembers(db, organizationId)).find((m) => m.user_id === userId);
  if (!member) throw notFound('member');
  return member;
}

async function refuseLastOwnerLoss(db: Executor, organizationId: string, targetRole: Role | undefined): Promise<void> {
  if (targetRole === 'owner' && (await repo.countOwners(db, organizationId)) === 1) {
    throw conflict('an organization must keep at least one owner; make another member owner first');
  }
}

/** Adds a user to the organization with a role, or changes the role of a member (owner only). */
export async function setMemberRole(db: Db, callerId: string, id: string, userId: string, role: Role): Promise<Member> {
  return inTransaction(db, async (trx) => {
    await requireRole(trx, id, callerId, 'owner');
    await refuseMirrored(trx, { organizationId: id });
    if (!(await findUserById(trx, userId))) throw notFound('user');
    const current = await repo.findRole(trx, id, userId);
    if (role !== 'owner') await refuseLastOwnerLoss(trx, id, current);
    await repo.upsertMembership(trx, { organization_id: id, user_id: userId, role, joined_at: currentTimestamp() });
    return findMember(trx, id, userId);
  });
}

/**
 * Removes a member from the organization and from all of its teams. Admins may remove members
 * and admins; only an owner may remove an owner, since that is a change of roles.
 */
export async function removeMember(db: Db, callerId: string, id: string, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const callerRole = await requireRole(trx, id, callerId, 'admin');
    await refuseMirrored(trx, { organizationId: id });
    const targetRole = await repo.findRole(trx, id, userId);
    if (!targetRole) throw notFound('member');
    if (targetRole === 'owner' && callerRole !== 'owner') throw forbidden('only an owner may remove an owner');
    await refuseLastOwnerLoss(trx, id, targetRole);
    await repo.removeFromOrganizationTeams(trx, id, userId);
    await repo.deleteMembership(trx, id, userId);
  });
}
