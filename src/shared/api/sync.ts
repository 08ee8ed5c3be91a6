import { Type, type Static } from 'typebox';
import { Id, Label, Timestamp, TokenCount } from './common';
import { Scan, TokenBreakdown } from './scans';

// Sync between stores (docs/contract/api.md#sync, docs/sync.md). Two halves: the change feed a
// Scandesk server answers to whoever syncs from it, and what a sync run reports on the store that
// runs it (progress while it runs, a summary at the end).

/** Most changes one feed page holds: one evidence export's worth of scans. */
export const SYNC_PAGE_MAX = 1000;

/** `GET /v1/sync/changes` (extension): the scans that changed since a cursor, a page at a time. */
export const SyncChangesQuery = Type.Object(
  {
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 8192,
        pattern: '^[A-Za-z0-9_-]+$',
        errorMessage: 'must be the cursor of a previous page, as it was',
        description: 'the `cursor` of the previous page, as it was; absent: from the beginning',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SYNC_PAGE_MAX, default: 500 })),
  },
  { additionalProperties: false },
);
export type SyncChangesQuery = Static<typeof SyncChangesQuery>;

export const SyncChange = Type.Object({
  id: Id,
  change_seq: Type.Integer({
    minimum: 0,
    description: 'the store change that last touched the scan (stored, or its violations re-evaluated)',
  }),
});
export type SyncChange = Static<typeof SyncChange>;

export const SyncChanges = Type.Object({
  changes: Type.Array(SyncChange, { description: 'scans the caller can see, changed after the cursor' }),
  cursor: Type.String({ description: 'opaque: pass it back to read on from here' }),
  more: Type.Boolean({ description: 'true while changes remain after this page' }),
  total: Type.Integer({ minimum: 0, description: 'the scans the caller can see now' }),
});
export type SyncChanges = Static<typeof SyncChanges>;

/** How a sync run ended: `done`, `partial` (some scans failed, named in `errors`), `unreachable`. */
export const SYNC_OUTCOMES = ['done', 'partial', 'unreachable'] as const;
export type SyncOutcome = (typeof SYNC_OUTCOMES)[number];

export const SyncProblem = Type.Object({
  what: Type.String({ description: 'what failed: a scan id, "pull", "push", "organizations"' }),
  why: Type.String(),
});
export type SyncProblem = Static<typeof SyncProblem>;

export const SyncSummary = Type.Object({
  remote: Type.String({ description: "the remote's name" }),
  outcome: Type.Enum(SYNC_OUTCOMES),
  started_at: Timestamp,
  finished_at: Timestamp,
  pulled: Type.Object({
    new: Type.Integer({ minimum: 0 }),
    changed: Type.Integer({ minimum: 0, description: 'stored before, now different (re-evaluated)' }),
    unchanged: Type.Integer({ minimum: 0 }),
    bytes: Type.Integer({ minimum: 0 }),
  }),
  pushed: Type.Object({
    sent: Type.Integer({ minimum: 0, description: 'acknowledged by the remote in this run' }),
    waiting: Type.Integer({ minimum: 0, description: 'still to send' }),
  }),
  gone: Type.Integer({
    minimum: 0,
    description: 'pulled scans the remote no longer lists; kept here (deletions are not propagated)',
  }),
  errors: Type.Array(SyncProblem),
});
export type SyncSummary = Static<typeof SyncSummary>;

/** One line of a sync's progress stream (NDJSON), then one `summary` line at the end. */
export const SyncEvent = Type.Union([
  Type.Object({
    type: Type.Literal('progress'),
    phase: Type.Enum(['organizations', 'pull', 'push'] as const),
    done: Type.Integer({ minimum: 0, description: 'scans done in this phase' }),
    total: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null while unknown' }),
    bytes: Type.Integer({ minimum: 0, description: 'bytes received so far' }),
  }),
  Type.Object({ type: Type.Literal('summary'), summary: SyncSummary }),
]);
export type SyncEvent = Static<typeof SyncEvent>;

// `POST /v1/sync/scans` (extension, docs/contract/api.md#scans-for-a-sync): the scans of a feed
// page in one dense answer, a line each, for a Scandesk store that syncs from this one.

/** Most timeline entries one line of `POST /v1/sync/scans` holds; a longer timeline comes as a package. */
export const SYNC_LINE_ENTRIES_MAX = 5000;
/** Most bytes of one line (its newline included); a scan whose line would be longer comes as a package. */
export const SYNC_LINE_MAX_BYTES = 1024 * 1024;
/** Most bytes of one answer; the scans past it come as packages. */
export const SYNC_ANSWER_MAX_BYTES = 32 * 1024 * 1024;
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z in epoch ms: the timestamps the API reads. */
const FIRST_MS = -62_167_219_200_000;
const LAST_MS = 253_402_300_799_999;

export const SyncScansBody = Type.Object(
  { scan_ids: Type.Array(Id, { minItems: 1, maxItems: SYNC_PAGE_MAX, uniqueItems: true }) },
  { additionalProperties: false },
);
export type SyncScansBody = Static<typeof SyncScansBody>;

/** A timeline entry in a line: `[timestamp as epoch ms, action, tokens]`. */
export const SyncTimelineEntry = Type.Tuple([Type.Integer({ minimum: FIRST_MS, maximum: LAST_MS }), Label, TokenCount]);
export type SyncTimelineEntry = Static<typeof SyncTimelineEntry>;

/** A scan whole: as the API answers it (every violation listed), its evidence totals, its timeline. */
export const SyncScanLine = Type.Object(
  {
    scan: Scan,
    evidence: Type.Object(
      {
        request_count: Type.Integer({ minimum: 0, maximum: SYNC_LINE_ENTRIES_MAX }),
        total_tokens: TokenCount,
        token_breakdown: TokenBreakdown,
      },
      { additionalProperties: false },
    ),
    timeline: Type.Array(SyncTimelineEntry, { maxItems: SYNC_LINE_ENTRIES_MAX }),
  },
  { additionalProperties: false },
);
export type SyncScanLine = Static<typeof SyncScanLine>;

/** A scan not in the answer: `gone` (deleted, or no longer visible), or `package` (fetch it as an evidence package). */
export const SyncScanSkipped = Type.Object(
  { id: Id, skipped: Type.Enum(['gone', 'package'] as const) },
  { additionalProperties: false },
);
export type SyncScanSkipped = Static<typeof SyncScanSkipped>;
