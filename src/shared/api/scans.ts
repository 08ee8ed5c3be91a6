import { Type, type Static } from 'typebox';
import { DateOrDateTime, Id, InputTimestamp, Label, plainText, TokenCount, Timestamp, Until } from './common';
import { OriginFilter } from './origins';
import { ToolPrefix } from './tools';

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const SeveritySchema = Type.Enum(SEVERITIES);

export const SCAN_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];
export const ScanStatusSchema = Type.Enum(SCAN_STATUSES);

/** `pulled`: mirrored from a remote by a sync (docs/contract/api.md#sync), read-only here. */
export const SCAN_SOURCES = ['submitted', 'imported', 'pulled'] as const;
export type ScanSource = (typeof SCAN_SOURCES)[number];

export const MAX_TIMELINE_ENTRIES = 100_000;

export const Violation = Type.Object({
  id: Id,
  rule: plainText(),
  severity: SeveritySchema,
  message: plainText(),
  timeline_index: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type Violation = Static<typeof Violation>;

/**
 * A scan object lists at most this many of its violations (the first, in the scan's order); the
 * rest are read a page at a time from `GET /v1/scans/:id/violations`. 1,000 violations are about
 * 180 KB of JSON; a timeline of 100,000 entries can give 200,000.
 */
export const SCAN_VIOLATIONS_INLINE_MAX = 1000;

/** Where a pulled scan came from (docs/contract/api.md#pulled-scans). */
export const ScanOrigin = Type.Object({
  remote: Type.Union([Type.String(), Type.Null()], {
    description: 'the name of the remote it was pulled from; null once that remote was removed',
  }),
  id: { ...Id, description: "the scan's id on that remote" },
});
export type ScanOrigin = Static<typeof ScanOrigin>;

/** A remote's copy of a scan pushed to it, and the remote's verdict under its own policy. */
export const ScanPush = Type.Object({
  remote: Type.String({ description: 'the name of the remote' }),
  id: { ...Id, description: "the scan's id on that remote" },
  violation_count: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: "the remote's violations of the scan, as last heard; null if it never said",
  }),
  worst_severity: Type.Union([SeveritySchema, Type.Null()]),
});
export type ScanPush = Static<typeof ScanPush>;

export const Scan = Type.Object({
  id: Id,
  created_at: Timestamp,
  tool: Type.String(),
  action: Type.String(),
  tokens: TokenCount,
  status: ScanStatusSchema,
  // No maxItems: an evidence package's scan.json is this object with every violation listed.
  violations: Type.Array(Violation, {
    description: `the scan's violations in order; an API response lists at most the first ${SCAN_VIOLATIONS_INLINE_MAX}, and \`violations_truncated\` says whether there are more`,
  }),
  violation_count: Type.Integer({ minimum: 0, description: 'all violations of the scan, listed or not (extension)' }),
  violations_truncated: Type.Boolean({
    description:
      '(extension) true when `violations` lists only the first of `violation_count`; GET /v1/scans/{id}/violations pages through them all',
  }),
  organization_id: Type.Union([Id, Type.Null()]),
  source: Type.Enum(SCAN_SOURCES),
  package_id: Type.Optional({
    ...Id,
    description:
      "(extension) an imported scan's id in the package it came from, shown only to its importer; GET /v1/scans?package_id= finds it",
  }),
  package_origin: Type.Optional({
    ...Label,
    description: "(extension) what made that package, where it says (a format-1 manifest's `generator`)",
  }),
  origin: Type.Optional({
    ...ScanOrigin,
    description:
      '(extension) a pulled scan: the remote it came from and its id there; GET /v1/scans?origin_id= finds it',
  }),
  pushed: Type.Optional(
    Type.Array(ScanPush, {
      description: '(extension) the remotes that acknowledged this scan when a sync pushed it; absent when none did',
    }),
  ),
});
export type Scan = Static<typeof Scan>;

/** A list row: the upstream list shape plus what a table of scans shows without a second request. */
export const ScanSummary = Type.Object({
  id: Id,
  created_at: Timestamp,
  tool: Type.String(),
  tokens: TokenCount,
  status: ScanStatusSchema,
  action: Type.String(),
  organization_id: Type.Union([Id, Type.Null()]),
  source: Type.Enum(SCAN_SOURCES),
  violation_count: Type.Integer({ minimum: 0 }),
  worst_severity: Type.Union([SeveritySchema, Type.Null()]),
  origin: Type.Optional({
    ...ScanOrigin,
    description: '(extension) a pulled scan in a list answer: the remote it came from and its id there',
  }),
});
export type ScanSummary = Static<typeof ScanSummary>;

export const ScanList = Type.Object({ scans: Type.Array(ScanSummary), total: Type.Integer({ minimum: 0 }) });
export type ScanList = Static<typeof ScanList>;

export const TimelineEntry = Type.Object(
  { timestamp: InputTimestamp, action: Label, tokens: TokenCount },
  { additionalProperties: false },
);
export type TimelineEntry = Static<typeof TimelineEntry>;

// TypeBox writes a record's key schema as `patternProperties: {"^.*$": …}`, which checks no key;
// `propertyNames` is what holds each key to the rule.
export const TokenBreakdown = Type.Record(Type.String(), TokenCount, {
  maxProperties: 100,
  propertyNames: plainText({ minLength: 1, maxLength: 100 }),
  description:
    'token type → count, e.g. {input, output, cached}; a type is 1–100 characters, no control characters or bidirectional overrides',
});
export type TokenBreakdown = Static<typeof TokenBreakdown>;

/** How far ahead of the server's clock a submitted `created_at` may be: clocks differ a little. */
export const CREATED_AT_MAX_AHEAD_MS = 5 * 60_000;

/** An `Idempotency-Key` is 1–200 printable ASCII characters. */
export const IDEMPOTENCY_KEY_MAX = 200;

/** The headers `POST /v1/scans` reads besides the usual ones (Fastify sees header names in lower case). */
export const SubmitScanHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX,
      pattern: '^[\\x20-\\x7E]+$',
      errorMessage: `must be 1–${IDEMPOTENCY_KEY_MAX} printable ASCII characters`,
      description:
        'the same key with the same body again answers the scan the first request stored (200, `Idempotent-Replayed: true`); with another body, 409',
    }),
  ),
});

export const SubmitScanBody = Type.Object(
  {
    tool: Label,
    action: Label,
    tokens: TokenCount,
    organization_id: Type.Optional(Id),
    timeline: Type.Optional(
      Type.Array(TimelineEntry, {
        minItems: 1,
        maxItems: MAX_TIMELINE_ENTRIES,
        description: 'tokens must equal the sum of the entries',
      }),
    ),
    token_breakdown: Type.Optional(TokenBreakdown),
    created_at: Type.Optional({
      ...InputTimestamp,
      description: `when the scan happened, for a scan submitted late (offline, then synced); at most ${CREATED_AT_MAX_AHEAD_MS / 60_000} minutes ahead of the server's clock. Default: when it is stored`,
    }),
  },
  {
    additionalProperties: false,
    // What a client sends (and what outside tools try first): the short form, and one with its timeline.
    examples: [
      { tool: 'claude-code', action: 'edit', tokens: 1200 },
      {
        tool: 'cursor',
        action: 'chat',
        tokens: 1500,
        timeline: [
          { timestamp: '2026-11-21T04:16:15.470Z', action: 'read', tokens: 300 },
          { timestamp: '2026-11-21T04:16:19.002Z', action: 'chat', tokens: 1200 },
        ],
        token_breakdown: { input: 1100, output: 400 },
      },
    ],
  },
);
export type SubmitScanBody = Static<typeof SubmitScanBody>;

export const ScanParams = Type.Object({ id: Id });

/** List orders (extension): a column, `-` for descending; the id breaks ties in the same direction. */
export const SCAN_LIST_SORTS = ['-created_at', 'created_at', '-tokens', 'tokens'] as const;
export type ScanListSort = (typeof SCAN_LIST_SORTS)[number];
export const DEFAULT_SCAN_LIST_SORT: ScanListSort = '-created_at';

/** A page of the scan list: at most this many rows, this many unless asked. */
export const SCAN_PAGE_MAX = 500;
export const SCAN_PAGE_DEFAULT = 50;

export const ScanListQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: SCAN_PAGE_MAX, default: SCAN_PAGE_DEFAULT }),
    offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
    since: Type.Optional(DateOrDateTime),
    until: Type.Optional(Until),
    tool: Type.Optional(Label),
    tool_prefix: Type.Optional(ToolPrefix),
    status: Type.Optional(ScanStatusSchema),
    organization_id: Type.Optional(Id),
    has_violations: Type.Optional(Type.Boolean()),
    source: Type.Optional(
      Type.Enum(SCAN_SOURCES, {
        description: 'submitted here, imported from a package, or pulled from a remote (extension)',
      }),
    ),
    origin_id: Type.Optional({
      ...Id,
      description:
        "pulled scans whose id on their remote is this one, from any remote (extension): a remote's link resolved here",
    }),
    origin: Type.Optional(OriginFilter),
    package_id: Type.Optional({
      ...Id,
      description: "scans you imported from a package in which this was their id (extension); never anyone else's",
    }),
    sort: Type.Optional(
      Type.Enum(SCAN_LIST_SORTS, {
        description: 'order of the list, `-` for descending; ties go by id in the same direction (extension)',
        default: DEFAULT_SCAN_LIST_SORT,
      }),
    ),
    after: Type.Optional({
      ...Id,
      description:
        'keyset paging (extension): the last scan id of the previous page; the list continues after it in its order, and offset counts from there',
    }),
  },
  { additionalProperties: false },
);
export type ScanListQuery = Static<typeof ScanListQuery>;

export const SCAN_EXPORT_FORMATS = ['csv', 'json'] as const;

/** `GET /v1/exports/scans` (extension): every scan the list's filters match, as one download. */
export const ScanExportQuery = Type.Object(
  {
    ...Type.Omit(ScanListQuery, ['limit', 'offset', 'after']).properties,
    format: Type.Optional(
      Type.Enum(SCAN_EXPORT_FORMATS, {
        default: 'csv',
        description: 'csv: RFC 4180 with a header record; json: one array of list rows',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ScanExportQuery = Static<typeof ScanExportQuery>;
