import { useId, useState, type FormEvent } from 'react';
import type { Role } from '../../../../shared/api/common';
import type { TeamSummary } from '../../../../shared/api/teams';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { useClock } from '../../lib/use-clock';
import { GuardedButton } from './Guarded';
import { candidatesToAdd } from './member-candidates';
import { MemberPicker } from './MemberPicker';
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
  const candidates = candidatesToAdd(
    (orgMembers.data?.members ?? []).map((m) => ({ id: m.user_id, name: m.name })),
    list.map((m) => m.user_id),
  );
  const choose = (id: string): void => {
    setUserId(id);
    add.reset();
  };

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
        <MemberPicker
          id={selectId}
          candidates={candidates}
          value={userId}
          onChange={choose}
          disabled={!may.allowed}
          title={may.reason ?? undefined}
          everyoneIn="Everyone is already in the team"
        />
        <GuardedButton type="submit" permission={may} disabled={!userId || add.isPending}>
          Add to team
        </GuardedButton>
      </form>
      {add.error ? <ErrorMessage error={add.error} /> : null}
      {orgMembers.error ? <ErrorMessage error={orgMembers.error} /> : null}
    </section>
  );
}
