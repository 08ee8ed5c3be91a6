import { Type } from 'typebox';
import { ID_MAX_LENGTH, ID_MESSAGE, ID_PATTERN } from '../ids';
import { NAME_MAX_LENGTH, NAME_MESSAGE, NAME_PATTERN } from '../names';

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

export const Id = Type.String({
  minLength: 1,
  maxLength: ID_MAX_LENGTH,
  pattern: ID_PATTERN,
  errorMessage: ID_MESSAGE,
  description: 'Opaque identifier: 1–100 characters of A–Z a–z 0–9 _ . : -, not "." or ".."',
});

/**
 * Organization, team and user names: 1–100 characters, at least one that is not a space, no
 * control characters. The server trims surrounding spaces before storing.
 */
export const Name = Type.String({
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  pattern: NAME_PATTERN,
  errorMessage: NAME_MESSAGE,
  description: '1–100 characters, not only spaces, no control characters; stored trimmed',
});

/** Tool and action names: the name rule, kept as given. */
export const Label = Type.String({
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  pattern: NAME_PATTERN,
  errorMessage: NAME_MESSAGE,
  description: '1–100 characters, not only spaces, no control characters',
});

/** A date (`2026-11-01`, midnight UTC) or a date-time; checked by the server's `date-or-date-time` format. */
export const DateOrDateTime = Type.String({
  format: 'date-or-date-time',
  errorMessage: 'must be a date (2026-11-01) or an ISO 8601 date-time (2026-11-01T12:00:00.000Z)',
  description: 'ISO date (midnight UTC) or date-time',
});

export const TokenCount = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const NameBody = Type.Object({ name: Name }, { additionalProperties: false });

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = Type.Enum(ROLES);

export const PLANS = ['free', 'team', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const PlanSchema = Type.Enum(PLANS);
