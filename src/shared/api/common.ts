import { Type } from 'typebox';
import { ID_MAX_LENGTH, ID_MESSAGE, ID_PATTERN } from '../ids';
import { NAME_MAX_LENGTH, NAME_MESSAGE, NAME_PATTERN } from '../names';
import { PLAIN_TEXT_MESSAGE, PLAIN_TEXT_PATTERN } from '../plain-text';

export const ID_PREFIX = {
  user: 'usr_',
  organization: 'org_',
  team: 'team_',
  scan: 'scan_',
  violation: 'vio_',
  token: 'tok_',
  remote: 'rmt_',
} as const;

/**
 * The longest time the API reads. RFC 3339 sets no bound on a fraction's digits; 64 characters hold
 * any zone and 30 of them, and give every request body a largest size to weigh against its byte
 * limit (docs/contract/limits.md#requests).
 */
export const TIME_MAX_LENGTH = 64;

/** Said once for every date-time the API reads: what no format keyword can state. */
const TIME_RANGE =
  'at most 64 characters; instants before 0000-01-01T00:00:00Z or after 9999-12-31T23:59:59.999Z are refused; digits past the millisecond are dropped; a leap second (23:59:60 UTC) reads as 23:59:59.999';

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC with milliseconds, e.g. 2026-11-21T04:16:15.470Z',
});

/** A date-time the API reads: any RFC 3339 form, stored and answered as a Timestamp. */
export const InputTimestamp = Type.String({
  format: 'date-time',
  maxLength: TIME_MAX_LENGTH,
  errorMessage: 'must be an RFC 3339 date-time (2026-11-21T04:16:15.470Z)',
  description: `RFC 3339 date-time, stored as UTC with milliseconds; ${TIME_RANGE}`,
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
  description: '1–100 characters, not only spaces, no control characters or bidirectional overrides; stored trimmed',
});

/** Tool and action names: the name rule, kept as given. */
export const Label = Type.String({
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  pattern: NAME_PATTERN,
  errorMessage: NAME_MESSAGE,
  description: '1–100 characters, not only spaces, no control characters or bidirectional overrides',
});

/**
 * Text the API stores and shows again that has no rule of its own (violation rules and messages,
 * token breakdown keys): anything but control characters and bidirectional overrides, which a
 * terminal would obey and a reader cannot see (src/shared/plain-text.ts).
 */
export const plainText = (options: { minLength?: number; maxLength?: number; description?: string } = {}) =>
  Type.String({ ...options, pattern: PLAIN_TEXT_PATTERN, errorMessage: PLAIN_TEXT_MESSAGE });

const DATE_OR_DATE_TIME_MESSAGE = 'must be a date (2026-11-01) or an RFC 3339 date-time (2026-11-01T12:00:00.000Z)';

/** A date (`2026-11-01`, midnight UTC) or a date-time: the standard formats, which outside tools know. */
export const DateOrDateTime = Type.String({
  maxLength: TIME_MAX_LENGTH,
  anyOf: [{ format: 'date' }, { format: 'date-time' }],
  errorMessage: DATE_OR_DATE_TIME_MESSAGE,
  description: `RFC 3339 full-date (midnight UTC) or date-time; ${TIME_RANGE}`,
});

/**
 * The end of a range: a date covers that whole UTC day (parseUntil in shared/time.ts), a
 * date-time is excluded itself. One meaning for every `until` the API, the CLI and the viewer take.
 */
export const Until = Type.String({
  maxLength: TIME_MAX_LENGTH,
  anyOf: [{ format: 'date' }, { format: 'date-time' }],
  errorMessage: DATE_OR_DATE_TIME_MESSAGE,
  description:
    'end of the range. A full-date includes that whole UTC day: `until=2026-11-01` keeps what happened before ' +
    `2026-11-02T00:00:00Z. A date-time is exclusive: \`until=2026-11-01T12:00:00Z\` keeps what happened before that instant; ${TIME_RANGE}`,
});

export const TokenCount = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const NameBody = Type.Object(
  { name: Name },
  { additionalProperties: false, examples: [{ name: 'Acme Research' }] },
);

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = Type.Enum(ROLES);

export const PLANS = ['free', 'team', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const PlanSchema = Type.Enum(PLANS);
