import type { Team, TeamMember, TeamMembership, TeamSummary } from '../../shared/api/teams';
import { type Db, type Executor, inTransaction } from '../db/index';
import { currentTimestamp } from '../../shared/time';
import { newId } from '../ids';
import { requireRole } from '../organizations/access';
import { refuseMirrored } from '../organizations/mirror-guard';
import { findRole, upsertMembership } from '../organizations/organizations.repository';
import { conflict, notFound } from '../domain-error';
import { findUserById } from '../users/users.repository';
import * as repo from './teams.repository';
import type { Role } from '../../shared/api/common';

function toTeam(row: NonNullable<Awaited<ReturnType<typeof repo.findTeam>>>): Team {
  return {
    id: row.id,
    name: row.name,
    organization_id: row.organization_id,
    member_count: row.member_count,
    created_at: row.created_at,
  };
}

/**
 * Finds a team the caller may see with the given role in its organization. A team of an
 * organization the caller is not in is "not found", like the organization itself.
 */
async function requireTeam(db: Executor, teamId: string, userId: string, minimum: Role): Promise<Team> {
  const row = await repo.findTeam(db, teamId);
  if (!row) throw notFound('team');
  await requireRole(db, row.organization_id, userId, minimum, 'team');
  return toTeam(row);
}

/** requireTeam for a change to the team, which its organization's remote owns if it is mirrored. */
async function requireChangeableTeam(db: Executor, teamId: string, userId: string): Promise<Team> {
  const team = await requireTeam(db, teamId, userId, 'admin');
  await refuseMirrored(db, { organizationId: team.organization_id, teamId });
  return team;
}

export async function listTeams(db: Db, userId: string, organizationId: string): Promise<TeamSummary[]> {
  await requireRole(db, organizationId, userId, 'member');
  return repo.listTeams(db, organizationId);
}

export async function readTeam(db: Db, userId: string, teamId: string): Promise<Team> {
  return requireTeam(db, teamId, userId, 'member');
}

export async function createTeam(db: Db, userId: string, organizationId: string, name: string): Promise<Team> {
  return inTransaction(db, async (trx) => {
    await requireRole(trx, organizationId, userId, 'admin');
    await refuseMirrored(trx, { organizationId });
    const trimmed = name.trim();
    const nameKey = repo.teamNameKey(trimmed);
    if (await repo.findTeamByNameKey(trx, organizationId, nameKey)) {
      throw conflict(`a team named "${trimmed}" already exists in this organization`, [
        { field: 'name', message: 'must be unique in the organization (case-insensitive)' },
      ]);
    }
    const id = newId('team');
    await repo.insertTeam(trx, {
      id,
      organization_id: organizationId,
      name: trimmed,
      name_key: nameKey,
      created_at: currentTimestamp(),
    });
    return toTeam((await repo.findTeam(trx, id))!);
  });
}

/**
 * Adds a user to a team; a user from outside the organization joins it as a member first.
 * Returns whether the membership is new (201) or already existed (200).
 */
export async function addTeamMember(
  db: Db,
  callerId: string,
  teamId: string,
  userId: string,
): Promise<{ created: boolean; membership: TeamMembership }> {
  return inTransaction(db, async (trx) => {
    const team = await requireChangeableTeam(trx, teamId, callerId);
    if (!(await findUserById(trx, userId))) throw notFound('user');
    const existing = await repo.findTeamMember(trx, teamId, userId);
    if (existing) return { created: false, membership: existing };
    const at = currentTimestamp();
    if (!(await findRole(trx, team.organization_id, userId))) {
      await upsertMembership(trx, {
        organization_id: team.organization_id,
        user_id: userId,
        role: 'member',
        joined_at: at,
      });
    }
    const membership = { team_id: teamId, user_id: userId, added_at: at };
    await repo.insertTeamMember(trx, membership);
    return { created: true, membership };
  });
}

export async function removeTeamMember(db: Db, callerId: string, teamId: string, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await requireChangeableTeam(trx, teamId, callerId);
    if ((await repo.deleteTeamMember(trx, teamId, userId)) === 0) throw notFound('team member');
  });
}

export async function listTeamMembers(db: Db, userId: string, teamId: string): Promise<TeamMember[]> {
  await requireTeam(db, teamId, userId, 'member');
  return repo.listTeamMembers(db, teamId);
}
