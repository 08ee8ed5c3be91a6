import { Type, type Static } from 'typebox';
import { DateOrDateTime, Id, Label, Timestamp, Until } from './common';
import { OriginFilter } from './origins';

export const STAT_BUCKETS = ['hour', 'day'] as const;
export type StatBucket = (typeof STAT_BUCKETS)[number];
export const STAT_GROUPS = ['tool', 'action'] as const;
export type StatGroup = (typeof STAT_GROUPS)[number];

export const TokenStatsQuery = Type.Object(
  {
    since: Type.Optional(DateOrDateTime),
    until: Type.Optional(Until),
    tool: Type.Optional(Label),
    organization_id: Type.Optional(Id),
    origin: Type.Optional(OriginFilter),
    bucket: Type.Enum(STAT_BUCKETS, { default: 'day' }),
    group_by: Type.Optional(Type.Enum(STAT_GROUPS)),
  },
  { additionalProperties: false },
);
export type TokenStatsQuery = Static<typeof TokenStatsQuery>;

/** A sum over many scans, each up to 2^53 − 1 tokens: it saturates there rather than lose precision. */
const TokenSum = Type.Integer({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'a sum of token counts; a sum past 2^53 − 1 is answered as 2^53 − 1',
});

const GroupStats = Type.Object({ tokens: TokenSum, scans: Type.Integer({ minimum: 0 }) });

export const TokenStatsBucket = Type.Object({
  start: Timestamp,
  tokens: TokenSum,
  scans: Type.Integer({ minimum: 0 }),
  violations: Type.Integer({ minimum: 0 }),
  groups: Type.Optional(Type.Record(Type.String(), GroupStats)),
});
export type TokenStatsBucket = Static<typeof TokenStatsBucket>;

export const TokenStats = Type.Object({ bucket: Type.Enum(STAT_BUCKETS), buckets: Type.Array(TokenStatsBucket) });
export type TokenStats = Static<typeof TokenStats>;

export const ViolationStatsQuery = Type.Object(
  {
    since: Type.Optional(DateOrDateTime),
    until: Type.Optional(Until),
    organization_id: Type.Optional(Id),
    origin: Type.Optional(OriginFilter),
  },
  { additionalProperties: false },
);
export type ViolationStatsQuery = Static<typeof ViolationStatsQuery>;

const Count = Type.Integer({ minimum: 0 });

export const ViolationStats = Type.Object({
  by_severity: Type.Object({ low: Count, medium: Count, high: Count, critical: Count }),
  by_rule: Type.Record(Type.String(), Count),
});
export type ViolationStats = Static<typeof ViolationStats>;
