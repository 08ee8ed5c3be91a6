import type { Executor, NewTeam, TeamRow } from '../db/index';

/** The unique key behind case-insensitive team names. */
export function teamNameKey(name: string): string {
  return name.trim().toLowerCase();
}

export async function insertTeam(db: Executor, team: NewTeam): Promise<void> {
  await db.insertInto('teams').values(team).execute();
}

export async function findTeamByNameKey(
  db: Executor,
  organizationId: string,
  nameKey: string,
): Promise<TeamRow | undefined> {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('name_key', '=', nameKey)
    .executeTakeFirst();
}

export async function findTeam(db: Executor, id: string): Promise<(TeamRow & { member_count: number }) | undefined> {
  const row = await db
    .selectFrom('teams')
    .selectAll('teams')
    .select((eb) =>
      eb
        .selectFrom('team_members')
        .select((m) => m.fn.countAll<number>().as('n'))
        .whereRef('team_members.team_id', '=', 'teams.id')
        .as('member_count'),
    )
    .where('teams.id', '=', id)
    .executeTakeFirst();
  return row && { ...row, member_count: Number(row.member_count) };
}

export async function listTeams(
  db: Executor,
  organizationId: string,
): Promise<{ id: string; name: string; member_count: number }[]> {
  const rows = await db
    .selectFrom('teams')
    .select(['teams.id', 'teams.name'])
    .select((eb) =>
      eb
        .selectFrom('team_members')
        .select((m) => m.fn.countAll<number>().as('n'))
        .whereRef('team_members.team_id', '=', 'teams.id')
        .as('member_count'),
    )
    .where('organization_id', '=', organizationId)
    .orderBy((eb) => eb.fn('lower', ['teams.name']))
    .orderBy('teams.name')
    .orderBy('teams.id')
    .execute();
  return rows.map((row) => ({ ...row, member_count: Number(row.member_count) }));
}

export async function findTeamMember(
  db: Executor,
  teamId: string,
  userId: string,
): Promise<{ team_id: string; user_id: string; added_at: string } | undefined> {
  return db
    .selectFrom('team_members')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function insertTeamMember(
  db: Executor,
  member: { team_id: string; user_id: string; added_at: string },
): Promise<void> {
  await db.insertInto('team_members').values(member).execute();
}

export async function deleteTeamMember(db: Executor, teamId: string, userId: string): Promise<number> {
  const result = await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listTeamMembers(
  db: Executor,
  teamId: string,
): Promise<{ user_id: string; name: string; added_at: string }[]> {
  return db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['team_members.user_id', 'users.name', 'team_members.added_at'])
    .where('team_members.team_id', '=', teamId)
    .orderBy((eb) => eb.fn('lower', ['users.name']))
    .orderBy('users.name')
    .orderBy('team_members.user_id')
    .execute();
}
