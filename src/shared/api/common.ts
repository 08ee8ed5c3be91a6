import { Type } from 'typebox';

export const ID_PREFIX = {
  user: 'usr_',
  organization: 'org_',
  team: 'team_',
  scan: 'scan_',
  violation: 'vio_',
  token: 'tok_',
} as const;

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC with milliseconds, e.g. 2026-11-21T04:16:15.470Z',
});

export const Id = Type.String({ minLength: 1, maxLength: 100, description: 'Opaque identifier' });

export const NAME_MAX_LENGTH = 100;

/**
 * Organization, team and user names: 1–100 characters, at least one that is not a space, no
 * control characters. The server trims surrounding spaces before storing.
 */
export const Name = Type.String({
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  pattern: '^[^\\p{Cc}]*[^\\p{Cc}\\s][^\\p{Cc}]*$',
  description: '1–100 characters, not only spaces, no control characters; stored trimmed',
});

export const NameBody = Type.Object({ name: Name }, { additionalProperties: false });

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = Type.Enum(ROLES);

export const PLANS = ['free', 'team', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const PlanSchema = Type.Enum(PLANS);
