import type { Insertable, Selectable } from 'kysely';

export interface UserTable {
  id: string;
  name: string;
  /** 1 for the workspace owner created at first start; integers keep this portable. */
  is_workspace_owner: number;
  created_at: string;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
