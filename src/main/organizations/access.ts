import type { Role } from '../../shared/api/common';
import type { Executor } from '../db/index';
import { forbidden, notFound } from '../domain-error';
import { findRole } from './organizations.repository';

const RANK: Record<Role, number> = { member: 1, admin: 2, owner: 3 };

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

/**
 * The permission table of docs/contract/auth.md#roles: a non-member learns nothing (404), a member whose role is
 * too low is refused (403). Returns the caller's role.
 */
export async function requireRole(
  db: Executor,
  organizationId: string,
  userId: string,
  minimum: Role,
  resource = 'organization',
): Promise<Role> {
  const role = await findRole(db, organizationId, userId);
  if (!role) throw notFound(resource);
  if (!roleAtLeast(role, minimum)) {
    throw forbidden(`this needs the ${minimum} role in the organization; yours is ${role}`);
  }
  return role;
}
