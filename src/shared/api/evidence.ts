import { Type, type Static } from 'typebox';
import { DateOrDateTime, Id, TokenCount, Timestamp, Until } from './common';
import { TimelineEntry, TokenBreakdown, Violation } from './scans';
import { NAME_MAX_LENGTH } from '../names';

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
  {
    n: Type.Integer({ minimum: 1, maximum: 2000, default: 500 }),
    since: Type.Optional(DateOrDateTime),
    until: Type.Optional(Until),
  },
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

/** `GET /v1/scans/:scan_id/evidence/timeline` (extension): one page of the timeline, with each entry's index. */
export const TIMELINE_PAGE_MAX = 5000;

export const TimelinePageQuery = Type.Object(
  {
    offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
    limit: Type.Integer({ minimum: 1, maximum: TIMELINE_PAGE_MAX, default: 1000 }),
    since: Type.Optional(DateOrDateTime),
    until: Type.Optional(Until),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: 'exact action' })),
  },
  { additionalProperties: false },
);
export type TimelinePageQuery = Static<typeof TimelinePageQuery>;

export const IndexedTimelineEntry = Type.Object({
  index: Type.Integer({ minimum: 0, description: "position in the scan's timeline, as violations' timeline_index" }),
  timestamp: Timestamp,
  action: Type.String(),
  tokens: TokenCount,
});
export type IndexedTimelineEntry = Static<typeof IndexedTimelineEntry>;

export const TimelinePage = Type.Object({
  total: Type.Integer({ minimum: 0, description: 'entries that match the filters, ignoring offset and limit' }),
  entries: Type.Array(IndexedTimelineEntry),
});
export type TimelinePage = Static<typeof TimelinePage>;

/** Scans per exported evidence package. */
export const EXPORT_MAX_SCANS = 1000;

export const ExportBody = Type.Object(
  { scan_ids: Type.Array(Id, { minItems: 1, maxItems: EXPORT_MAX_SCANS, uniqueItems: true }) },
  { additionalProperties: false },
);
export type ExportBody = Static<typeof ExportBody>;

/**
 * `POST /v1/evidence/imports` (docs/contract/package-format.md#import): the scans stored now, and
 * those already stored identically, by the ids they are stored under; `ids` maps each of the
 * package's scan ids to that id (a scan the importer cannot see is stored under an id derived from
 * theirs: docs/contract/package-format.md#imported-ids).
 */
export const ImportResult = Type.Object({
  imported: Type.Array(Id),
  unchanged: Type.Array(Id),
  ids: Type.Record(Id, Id, { description: 'package scan id → the id it is stored under' }),
});
export type ImportResult = Static<typeof ImportResult>;
