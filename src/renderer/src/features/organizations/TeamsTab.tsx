import { Link } from '@tanstack/react-router';
import type { Role } from '../../../../shared/api/common';
import { QueryState } from '../../components/QueryState';
import { formatCount } from '../../lib/format';
import { NameForm } from './NameForm';
import { permission } from './permissions';
import { TeamMembers } from './TeamMembers';
import { useCreateTeam, useTeams } from './teams-api';

export function TeamsTab({ orgId, role, teamId }: { orgId: string; role: Role | undefined; teamId?: string }) {
  const teams = useTeams(orgId);
  const create = useCreateTeam(orgId);
  const list = teams.data?.teams ?? [];
  const selected = list.find((team) => team.id === teamId);

  return (
    <section className="org-teams" aria-labelledby="org-teams-heading">
      <h3 id="org-teams-heading">Teams</h3>
      <QueryState isPending={teams.isPending} error={teams.error} isEmpty={list.length === 0} empty="No teams yet.">
        <ul className="org-team-list">
          {list.map((team) => (
            <li key={team.id}>
              <Link
                to="/organizations"
                search={{ org: orgId, tab: 'teams', team: team.id }}
                aria-current={team.id === teamId ? 'page' : undefined}
              >
                {team.name}
              </Link>{' '}
              <span className="org-muted">
                {formatCount(team.member_count)} member{team.member_count === 1 ? '' : 's'}
              </span>
            </li>
          ))}
        </ul>
      </QueryState>
      <NameForm
        key={create.data?.id ?? 'new'}
        label="New team name"
        submitLabel="Create team"
        pending={create.isPending}
        error={create.error}
        permission={permission(role, 'create-team')}
        onSubmit={(name) => create.mutate(name)}
      />
      {teamId && teams.isSuccess && !selected && (
        <p className="state state-error" role="alert">
          There is no team {teamId} in this organization.
        </p>
      )}
      {selected && <TeamMembers key={selected.id} orgId={orgId} team={selected} role={role} />}
    </section>
  );
}
