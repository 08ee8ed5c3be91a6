import type { Role } from '../../../../shared/api/common';

export type OrgAction =
  'rename' | 'delete' | 'create-team' | 'edit-team-members' | 'edit-policy' | 'set-roles' | 'remove-member';

const OWNER_ADMIN = 'Only owners and admins can';
const OWNER = 'Only owners can';

// docs/contract/auth.md#roles: the role table, with the sentence shown next to a control the role forbids.
const RULES: Record<OrgAction, { roles: readonly Role[]; reason: string }> = {
  rename: { roles: ['owner', 'admin'], reason: `${OWNER_ADMIN} rename an organization` },
  delete: { roles: ['owner'], reason: `${OWNER} delete an organization` },
  'create-team': { roles: ['owner', 'admin'], reason: `${OWNER_ADMIN} create teams` },
  'edit-team-members': { roles: ['owner', 'admin'], reason: `${OWNER_ADMIN} add or remove team members` },
  'edit-policy': { roles: ['owner', 'admin'], reason: `${OWNER_ADMIN} edit the policy` },
  'set-roles': { roles: ['owner'], reason: `${OWNER} add members or change roles` },
  'remove-member': { roles: ['owner', 'admin'], reason: `${OWNER_ADMIN} remove members` },
};

export interface Permission {
  allowed: boolean;
  /** Why not, when not allowed. */
  reason: string | null;
}

export function permission(role: Role | undefined, action: OrgAction): Permission {
  const rule = RULES[action];
  const allowed = role !== undefined && rule.roles.includes(role);
  return { allowed, reason: allowed ? null : rule.reason };
}

export const ROLE_OPTIONS = ['owner', 'admin', 'member'] as const satisfies readonly Role[];
