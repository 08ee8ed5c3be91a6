import type { ReactNode } from 'react';
import { GuardedButton } from './Guarded';
import type { Permission } from './permissions';

interface Member {
  user_id: string;
  name: string;
}

interface MemberTableProps<M extends Member> {
  members: readonly M[];
  /** Headers of the columns between the user id and the actions, and each member's cells for them. */
  columns: readonly string[];
  cells(member: M): ReactNode;
  /** Marks a member in the name cell, e.g. "(you)". */
  note?(member: M): ReactNode;
  remove: { permission: Permission; pending: boolean; label(member: M): string; run(userId: string): void };
}

/** People of an organization or a team: name, id, the caller's columns, and a guarded Remove. */
export function MemberTable<M extends Member>({ members, columns, cells, note, remove }: MemberTableProps<M>) {
  return (
    <table className="org-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">User id</th>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {members.map((member) => (
          <tr key={member.user_id}>
            <td>
              {member.name}
              {note?.(member)}
            </td>
            <td>
              <code>{member.user_id}</code>
            </td>
            {cells(member)}
            <td>
              <GuardedButton
                permission={remove.permission}
                disabled={remove.pending}
                aria-label={remove.label(member)}
                onClick={() => remove.run(member.user_id)}
              >
                Remove
              </GuardedButton>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
