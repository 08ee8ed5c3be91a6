import type { Role } from '../../shared/api/common';
import type { Executor, NewOrganization, OrganizationRow } from '../db/index';

export async function insertOrganization(db: Executor, organization: NewOrganization): Promise<void> {
  await db.insertInto('organizations').values(organization).execute();
}

export async function findOrganization(
  db: Executor,
  id: string,
): Promise<(OrganizationRow & { member_count: number }) | undefined> {
  return db
    .selectFrom('organizations')
    .selectAll('organizations')
    .select((eb) =>
      eb
        .selectFrom('memberships')
        .select((m) => m.fn.countAll<number>().as('n'))
        .whereRef('memberships.organization_id', '=', 'organizations.id')
        .as('member_count'),
    )
    .where('organizations.id', '=', id)
    .executeTakeFirst() as Promise<(OrganizationRow & { member_count: number }) | undefined>;
}

export async function listOrganizationsOfUser(
  db: Executor,
  userId: string,
): Promise<{ id: string; name: string; role: Role }[]> {
  return db
    .selectFrom('organizations')
    .innerJoin('memberships', 'memberships.organization_id', 'organizations.id')
    .select(['organizations.id', 'organizations.name', 'memberships.role'])
    .where('memberships.user_id', '=', userId)
    .orderBy((eb) => eb.fn('lower', ['organizations.name']))
    .orderBy('organizations.name')
    .orderBy('organizations.id')
    .execute();
}

export async function renameOrganization(db: Executor, id: string, name: string): Promise<void> {
  await db.updateTable('organizations').set({ name }).where('id', '=', id).execute();
}

/** Teams, memberships, policy and scans (with their evidence) go with it by foreign-key cascade. */
export async function deleteOrganization(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('organizations').where('id', '=', id).execute();
}

export async function findRole(db: Executor, organizationId: string, userId: string): Promise<Role | undefined> {
  const row = await db
    .selectFrom('memberships')
    .select('role')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

export async function listMembers(
  db: Executor,
  organizationId: string,
): Promise<{ user_id: string; name: string; role: Role; joined_at: string }[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.user_id', 'users.name', 'memberships.role', 'memberships.joined_at'])
    .where('memberships.organization_id', '=', organizationId)
    .orderBy((eb) => eb.fn('lower', ['users.name']))
    .orderBy('users.name')
    .orderBy('memberships.user_id')
    .execute();
}

export async function upsertMembership(
  db: Executor,
  membership: { organization_id: string; user_id: string; role: Role; joined_at: string },
): Promise<void> {
  await db
    .insertInto('memberships')
    .values(membership)
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doUpdateSet({ role: membership.role }))
    .execute();
}

export async function deleteMembership(db: Executor, organizationId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('memberships')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function countOwners(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertDefaultPolicy(db: Executor, organizationId: string, at: string): Promise<void> {
  await db
    .insertInto('policies')
    .values({
      organization_id: organizationId,
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: '[]',
      blocked_actions: '[]',
      updated_at: at,
    })
    .execute();
}

/** Leaving an organization means leaving its teams too: team membership needs organization membership. */
export async function removeFromOrganizationTeams(db: Executor, organizationId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('user_id', '=', userId)
    .where('team_id', 'in', db.selectFrom('teams').select('id').where('organization_id', '=', organizationId))
    .execute();
}

/**
 * The name of the remote that an organization, or a team of it, is mirrored from; undefined for
 * ones made here (or whose remote was removed: what it mirrored stays, as local data).
 */
export async function findMirroringRemote(
  db: Executor,
  of: { organizationId: string; teamId?: string },
): Promise<string | undefined> {
  const row = await db
    .selectFrom('remotes')
    .select('name')
    .where((eb) =>
      eb.or([
        eb('id', 'in', eb.selectFrom('organizations').select('remote_id').where('id', '=', of.organizationId)),
        ...(of.teamId === undefined
          ? []
          : [eb('id', 'in', eb.selectFrom('teams').select('remote_id').where('id', '=', of.teamId))]),
      ]),
    )
    .executeTakeFirst();
  return row?.name;
}
