import { Type, type Static } from 'typebox';
import { Id, TokenCount, Timestamp } from './common';
import { TimelineEntry, TokenBreakdown, Violation } from './scans';

export const EVIDENCE_TYPES = ['timeline', 'token_breakdown', 'violations'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

export const EvidenceParams = Type.Object({ scan_id: Id });

export const EvidenceQuery = Type.Object(
  {
    types: Type.Optional(
      Type.String({
        pattern: `^(${EVIDENCE_TYPES.join('|')})(,(${EVIDENCE_TYPES.join('|')}))*$`,
        errorMessage: `must be a comma-separated list of ${EVIDENCE_TYPES.join(', ')}`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type EvidenceQuery = Static<typeof EvidenceQuery>;

export const Evidence = Type.Object({
  scan_id: Id,
  evidence: Type.Object({
    request_count: Type.Integer({ minimum: 0 }),
    total_tokens: TokenCount,
    timeline: Type.Optional(Type.Array(TimelineEntry)),
    token_breakdown: Type.Optional(TokenBreakdown),
    violations: Type.Optional(Type.Array(Violation)),
  }),
});
export type Evidence = Static<typeof Evidence>;

export const TimelineBucketsQuery = Type.Object(
  { n: Type.Integer({ minimum: 1, maximum: 2000, default: 500 }) },
  { additionalProperties: false },
);

export const TimelineBucket = Type.Object({
  start: Timestamp,
  end: Timestamp,
  count: Type.Integer({ minimum: 1 }),
  tokens: TokenCount,
  min_tokens: TokenCount,
  max_tokens: TokenCount,
  violations: Type.Integer({ minimum: 0 }),
});
export type TimelineBucket = Static<typeof TimelineBucket>;

export const TimelineBuckets = Type.Object({ buckets: Type.Array(TimelineBucket) });
export type TimelineBuckets = Static<typeof TimelineBuckets>;

export const ExportBody = Type.Object(
  { scan_ids: Type.Array(Id, { minItems: 1, maxItems: 1000, uniqueItems: true }) },
  { additionalProperties: false },
);
export type ExportBody = Static<typeof ExportBody>;

/** `POST /v1/evidence/imports` (SPEC.md §8): the scans stored now, and those already stored identically. */
export const ImportResult = Type.Object({
  imported: Type.Array(Id),
  unchanged: Type.Array(Id),
});
export type ImportResult = Static<typeof ImportResult>;
