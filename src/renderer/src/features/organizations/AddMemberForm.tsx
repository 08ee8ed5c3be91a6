import { useId, useState, type FormEvent } from 'react';
import type { Role } from '../../../../shared/api/common';
import { ErrorMessage } from '../../components/QueryState';
import { GuardedButton } from './Guarded';
import { useSetMemberRole, useUsers } from './organizations-api';
import { ROLE_OPTIONS, type Permission } from './permissions';

/** Adds a user by id (PUT members): the workspace owner also gets the list of users to pick from. */
export function AddMemberForm({ orgId, permission }: { orgId: string; permission: Permission }) {
  const add = useSetMemberRole(orgId);
  const users = useUsers();
  const userInputId = useId();
  const roleId = useId();
  const listId = useId();
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<Role>('member');
  const off = !permission.allowed;

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
          <label htmlFor={userInputId}>User id</label>
          <input
            id={userInputId}
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
            list={users.data ? listId : undefined}
            placeholder="usr_…"
            disabled={off}
            title={permission.reason ?? undefined}
            autoComplete="off"
          />
          {users.data && (
            <datalist id={listId}>
              {users.data.users.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name}
                </option>
              ))}
            </datalist>
          )}
        </div>
        <div className="org-field">
          <label htmlFor={roleId}>Role</label>
          <select
            id={roleId}
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
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
