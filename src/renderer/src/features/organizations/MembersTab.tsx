import type { Role } from '../../../../shared/api/common';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { useClock } from '../../lib/use-clock';
import { AddMemberForm } from './AddMemberForm';
import { Reason } from './Guarded';
import { MemberTable } from './MemberTable';
import { useMembers, useRemoveMember, useSetMemberRole } from './organizations-api';
import { permission, ROLE_OPTIONS } from './permissions';
import { useMe } from '../users/users-api';

const ROLE_REASON_ID = 'org-role-reason';

export function MembersTab({ orgId, role }: { orgId: string; role: Role | undefined }) {
  const members = useMembers(orgId);
  const clock = useClock();
  const me = useMe();
  const setRole = useSetMemberRole(orgId);
  const remove = useRemoveMember(orgId);
  const maySetRoles = permission(role, 'set-roles');
  const mayRemove = permission(role, 'remove-member');
  const list = members.data?.members ?? [];

  return (
    <section aria-labelledby="org-members-heading">
      <h3 id="org-members-heading">Members and roles</h3>
      <Reason id={ROLE_REASON_ID} permission={maySetRoles} />
      <QueryState isPending={members.isPending} error={members.error} isEmpty={list.length === 0} empty="No members.">
        <MemberTable
          members={list}
          columns={['Role', `Joined (${clock.label})`]}
          note={(member) => (member.user_id === me.data?.id ? <span className="org-muted"> (you)</span> : null)}
          cells={(member) => (
            <>
              <td>
                <select
                  aria-label={`Role of ${member.name}`}
                  value={member.role}
                  disabled={!maySetRoles.allowed || setRole.isPending}
                  title={maySetRoles.reason ?? undefined}
                  aria-describedby={maySetRoles.allowed ? undefined : ROLE_REASON_ID}
                  onChange={(e) => setRole.mutate({ userId: member.user_id, role: e.target.value as Role })}
                >
                  {ROLE_OPTIONS.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </select>
              </td>
              <td>{clock.dateTime(member.joined_at)}</td>
            </>
          )}
          remove={{
            permission: mayRemove,
            pending: remove.isPending,
            label: (member) => `Remove ${member.name} from the organization`,
            run: (userId) => remove.mutate(userId),
          }}
        />
      </QueryState>
      {setRole.error ? <ErrorMessage error={setRole.error} /> : null}
      {remove.error ? <ErrorMessage error={remove.error} /> : null}
      <AddMemberForm orgId={orgId} permission={maySetRoles} />
    </section>
  );
}
