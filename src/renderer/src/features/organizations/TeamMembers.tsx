import { useId, useState, type FormEvent } from 'react';
import type { Role } from '../../../../shared/api/common';
import type { TeamSummary } from '../../../../shared/api/teams';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { useClock } from '../../lib/use-clock';
import { GuardedButton } from './Guarded';
import { MemberTable } from './MemberTable';
import { useMembers } from './organizations-api';
import { permission } from './permissions';
import { useAddTeamMember, useRemoveTeamMember, useTeamMembers } from './teams-api';

export function TeamMembers({ orgId, team, role }: { orgId: string; team: TeamSummary; role: Role | undefined }) {
  const members = useTeamMembers(team.id);
  const clock = useClock();
  const orgMembers = useMembers(orgId);
  const add = useAddTeamMember(orgId, team.id);
  const remove = useRemoveTeamMember(orgId, team.id);
  const may = permission(role, 'edit-team-members');
  const selectId = useId();
  const [userId, setUserId] = useState('');

  const list = members.data?.members ?? [];
  const inTeam = new Set(list.map((m) => m.user_id));
  const candidates = (orgMembers.data?.members ?? []).filter((m) => !inTeam.has(m.user_id));

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (userId) add.mutate(userId, { onSuccess: () => setUserId('') });
  };

  return (
    <section className="card org-team-members" aria-labelledby="org-team-members-heading">
      <h4 id="org-team-members-heading">Members of {team.name}</h4>
      <QueryState
        isPending={members.isPending}
        error={members.error}
        isEmpty={list.length === 0}
        empty="This team has no members yet."
      >
        <MemberTable
          members={list}
          columns={[`Added (${clock.label})`]}
          cells={(member) => <td>{clock.dateTime(member.added_at)}</td>}
          remove={{
            permission: may,
            pending: remove.isPending,
            label: (member) => `Remove ${member.name} from ${team.name}`,
            run: (userId) => remove.mutate(userId),
          }}
        />
      </QueryState>
      {remove.error ? <ErrorMessage error={remove.error} /> : null}
      <form className="org-row" onSubmit={submit}>
        <label htmlFor={selectId}>Add an organization member</label>
        <select
          id={selectId}
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          disabled={!may.allowed || candidates.length === 0}
          title={may.reason ?? undefined}
        >
          <option value="">{candidates.length === 0 ? 'Everyone is already in the team' : 'Choose a member…'}</option>
          {candidates.map((m) => (
            <option key={m.user_id} value={m.user_id}>
              {m.name} ({m.user_id})
            </option>
          ))}
        </select>
        <GuardedButton type="submit" permission={may} disabled={!userId || add.isPending}>
          Add to team
        </GuardedButton>
      </form>
      {add.error ? <ErrorMessage error={add.error} /> : null}
      {orgMembers.error ? <ErrorMessage error={orgMembers.error} /> : null}
    </section>
  );
}
