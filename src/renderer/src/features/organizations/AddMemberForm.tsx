import { useId, useState, type FormEvent } from 'react';
import type { Role } from '../../../../shared/api/common';
import { ErrorMessage } from '../../components/QueryState';
import { GuardedButton } from './Guarded';
import { candidatesToAdd } from './member-candidates';
import { MemberPicker } from './MemberPicker';
import { useMembers, useSetMemberRole, useUsers } from './organizations-api';
import { ROLE_OPTIONS, type Permission } from './permissions';

/**
 * Adds a user to the organization (PUT members). The workspace owner, who may list the users,
 * picks one by name as the team form does; anyone else cannot see the users (403) and enters the
 * id the person gave them.
 */
export function AddMemberForm({ orgId, permission }: { orgId: string; permission: Permission }) {
  const add = useSetMemberRole(orgId);
  const users = useUsers();
  const members = useMembers(orgId);
  const userInputId = useId();
  const roleId = useId();
  const hintId = useId();
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<Role>('member');
  const off = !permission.allowed;
  // Refused (403) for all but the owner; until it answers, the picker waits rather than flickering.
  const canList = !users.isError;
  const candidates = candidatesToAdd(
    users.data?.users ?? [],
    (members.data?.members ?? []).map((member) => member.user_id),
  );

  // A refusal was about the user or role sent: a new choice makes it stale.
  const chooseUser = (id: string): void => {
    setUserId(id);
    add.reset();
  };
  const chooseRole = (next: Role): void => {
    setRole(next);
    add.reset();
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const id = userId.trim();
    if (id) add.mutate({ userId: id, role }, { onSuccess: () => setUserId('') });
  };

  return (
    <form className="org-add-member" onSubmit={submit}>
      <h4>Add a member</h4>
      <div className="org-row">
        <div className="org-field">
          {canList ? (
            <>
              <label htmlFor={userInputId}>User</label>
              <MemberPicker
                id={userInputId}
                candidates={candidates}
                value={userId}
                onChange={chooseUser}
                disabled={off}
                title={permission.reason ?? undefined}
                everyoneIn={users.isPending ? 'Loading users…' : 'Every user is already a member'}
              />
            </>
          ) : (
            <>
              <label htmlFor={userInputId}>User id</label>
              <input
                id={userInputId}
                value={userId}
                onChange={(e) => chooseUser(e.target.value)}
                placeholder="usr_…"
                disabled={off}
                title={permission.reason ?? undefined}
                autoComplete="off"
                aria-describedby={hintId}
              />
              <span className="org-muted org-hint" id={hintId}>
                Only the workspace owner can list the users: enter the person&apos;s user id.
              </span>
            </>
          )}
        </div>
        <div className="org-field">
          <label htmlFor={roleId}>Role</label>
          <select
            id={roleId}
            value={role}
            onChange={(e) => chooseRole(e.target.value as Role)}
            disabled={off}
            title={permission.reason ?? undefined}
          >
            {ROLE_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <GuardedButton type="submit" permission={permission} disabled={!userId.trim() || add.isPending}>
          Add member
        </GuardedButton>
      </div>
      {add.error ? <ErrorMessage error={add.error} /> : null}
    </form>
  );
}
