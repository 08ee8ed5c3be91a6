import { Type, type Static } from 'typebox';
import { Id, NameBody, Timestamp } from './common';

export const TeamSummary = Type.Object({ id: Id, name: Type.String(), member_count: Type.Integer() });
export type TeamSummary = Static<typeof TeamSummary>;

export const TeamList = Type.Object({ teams: Type.Array(TeamSummary) });
export type TeamList = Static<typeof TeamList>;

export const Team = Type.Object({
  id: Id,
  name: Type.String(),
  organization_id: Id,
  member_count: Type.Integer(),
  created_at: Timestamp,
});
export type Team = Static<typeof Team>;

export const TeamBody = NameBody;
export type TeamBody = Static<typeof TeamBody>;

export const OrgTeamsParams = Type.Object({ org_id: Id });
export const TeamParams = Type.Object({ id: Id });
export const TeamMemberParams = Type.Object({ id: Id, user_id: Id });

export const AddTeamMemberBody = Type.Object({ user_id: Id }, { additionalProperties: false });
export type AddTeamMemberBody = Static<typeof AddTeamMemberBody>;

export const TeamMembership = Type.Object({ team_id: Id, user_id: Id, added_at: Timestamp });
export type TeamMembership = Static<typeof TeamMembership>;

export const TeamMember = Type.Object({ user_id: Id, name: Type.String(), added_at: Timestamp });
export type TeamMember = Static<typeof TeamMember>;

export const TeamMemberList = Type.Object({ members: Type.Array(TeamMember) });
export type TeamMemberList = Static<typeof TeamMemberList>;
