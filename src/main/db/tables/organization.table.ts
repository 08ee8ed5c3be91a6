import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
import type { Plan, Role } from '../../../shared/api/common';

export interface OrganizationTable {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
  /** The remote this organization is mirrored from (read-only here), or null: a local one. */
  remote_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its id on that remote. */
  remote_org_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface MembershipTable {
  organization_id: string;
  user_id: string;
  role: Role;
  joined_at: string;
}

export type OrganizationRow = Selectable<OrganizationTable>;
export type NewOrganization = Insertable<OrganizationTable>;
export type OrganizationUpdate = Updateable<OrganizationTable>;
export type MembershipRow = Selectable<MembershipTable>;
