import { Type, type Static } from 'typebox';
import { Id, NameBody, PlanSchema, RoleSchema, Timestamp } from './common';

export const OrganizationSummary = Type.Object({ id: Id, name: Type.String(), role: RoleSchema });
export type OrganizationSummary = Static<typeof OrganizationSummary>;

export const OrganizationList = Type.Object({ organizations: Type.Array(OrganizationSummary) });
export type OrganizationList = Static<typeof OrganizationList>;

export const Organization = Type.Object({
  id: Id,
  name: Type.String(),
  created_at: Timestamp,
  member_count: Type.Integer(),
  plan: PlanSchema,
});
export type Organization = Static<typeof Organization>;

export const OrganizationBody = NameBody;
export type OrganizationBody = Static<typeof OrganizationBody>;

export const OrganizationParams = Type.Object({ id: Id });
export const MemberParams = Type.Object({ id: Id, user_id: Id });

export const Member = Type.Object({ user_id: Id, name: Type.String(), role: RoleSchema, joined_at: Timestamp });
export type Member = Static<typeof Member>;

export const MemberList = Type.Object({ members: Type.Array(Member) });
export type MemberList = Static<typeof MemberList>;

export const MemberRoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });
export type MemberRoleBody = Static<typeof MemberRoleBody>;
