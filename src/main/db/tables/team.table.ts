import type { ColumnType, Insertable, Selectable } from 'kysely';

export interface TeamTable {
  id: string;
  organization_id: string;
  name: string;
  /** Lower-cased name: the unique key that makes team names case-insensitive per organization. */
  name_key: string;
  created_at: string;
  /** The remote this team is mirrored from (read-only here), or null: a local one. */
  remote_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its id on that remote. */
  remote_team_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TeamMemberTable {
  team_id: string;
  user_id: string;
  added_at: string;
}

export type TeamRow = Selectable<TeamTable>;
export type NewTeam = Insertable<TeamTable>;
