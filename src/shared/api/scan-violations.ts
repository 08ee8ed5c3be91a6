import { Type, type Static } from 'typebox';
import { plainText } from './common';
import { SeveritySchema, Violation } from './scans';

/**
 * `GET /v1/scans/:id/violations` (extension): one page of a scan's violations, in the scan's own
 * order (the order of its `violations` array), whatever their number.
 */
export const VIOLATION_PAGE_MAX = 1000;
export const VIOLATION_PAGE_DEFAULT = 100;

export const ViolationPageQuery = Type.Object(
  {
    offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
    limit: Type.Integer({ minimum: 1, maximum: VIOLATION_PAGE_MAX, default: VIOLATION_PAGE_DEFAULT }),
    rule: Type.Optional(plainText({ description: 'only violations of this rule (exact), as the summary lists it' })),
    severity: Type.Optional(SeveritySchema),
  },
  { additionalProperties: false },
);
export type ViolationPageQuery = Static<typeof ViolationPageQuery>;

export const ViolationPage = Type.Object({
  total: Type.Integer({
    minimum: 0,
    description:
      "the violations that `rule` and `severity` select: all the scan's (its `violation_count`) without them",
  }),
  violations: Type.Array(Violation),
});
export type ViolationPage = Static<typeof ViolationPage>;

const Count = Type.Integer({ minimum: 1 });

/**
 * `GET /v1/scans/:id/violations/summary` (extension): the scan's violations counted, never listed.
 * Rules are an array, not an object keyed by rule: an imported rule may be named anything.
 */
export const ViolationSummary = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  by_severity: Type.Object({
    low: Type.Integer({ minimum: 0 }),
    medium: Type.Integer({ minimum: 0 }),
    high: Type.Integer({ minimum: 0 }),
    critical: Type.Integer({ minimum: 0 }),
  }),
  by_rule: Type.Array(Type.Object({ rule: Type.String(), severity: SeveritySchema, count: Count }), {
    description: 'one row per rule and severity that occur, the most frequent first, then by rule',
  }),
  with_entry: Type.Integer({ minimum: 0, description: 'violations that point at a timeline entry' }),
});
export type ViolationSummary = Static<typeof ViolationSummary>;

/** Timeline entries per request to `GET /v1/scans/:id/violations/entries`, as a timeline page's limit. */
export const VIOLATION_ENTRIES_MAX = 5000;

export const ViolationEntriesQuery = Type.Object(
  {
    offset: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 0,
      description: 'the first timeline index counted',
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: VIOLATION_ENTRIES_MAX,
      default: 1000,
      description: 'how many timeline indexes from offset are counted',
    }),
  },
  { additionalProperties: false },
);
export type ViolationEntriesQuery = Static<typeof ViolationEntriesQuery>;

/** Per timeline entry in the range, the number of violations that point at it; entries with none are left out. */
export const ViolationEntries = Type.Object({
  entries: Type.Array(
    Type.Object({
      index: Type.Integer({ minimum: 0, description: "the entry's timeline_index" }),
      violations: Count,
    }),
  ),
});
export type ViolationEntries = Static<typeof ViolationEntries>;
