// Where a pull from a plain upstream stands (docs/sync.md). The upstream interface offers a list
// with limit, offset and `since` (whose inclusiveness it does not say) in an order of its own, and
// a total: no change feed. So the cursor is a watermark (the newest created_at of a scan read in a
// complete pass) plus how many scans the remote listed below it then. A later run counts again:
// when "all" still equals "below the watermark" plus "since the watermark", only the scans since
// the watermark are listed; when it does not (a scan was removed, or added with an older time),
// the whole list is read again. Either way, ids already stored are skipped without a download, so
// a pass read twice costs list requests, never data.

/** The cursor as saved in remotes.cursor (JSON). */
export interface UpstreamCursor {
  v: 1;
  kind: 'upstream';
  /** Newest created_at (ISO) among the scans of the last complete pass; null: none seen yet. */
  since: string | null;
  /** How many scans the remote listed before `since` when the pass ended. */
  before: number;
  /** Pulled scans the remote no longer listed at the last full pass. */
  gone: number;
}

/** The counts a run asks for before choosing its pass: `GET /v1/scans?limit=1` with and without `since`. */
export interface UpstreamTotals {
  all: number;
  sinceWatermark: number;
}

export type UpstreamPass = { mode: 'full' } | { mode: 'since'; since: string };

/** The cursor saved, or null when there is none or it is not one of ours (then: a full pass). */
export function parseUpstreamCursor(text: string | null): UpstreamCursor | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const c = value as Record<string, unknown>;
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (c.v !== 1 || c.kind !== 'upstream' || !count(c.before) || !count(c.gone)) return null;
  if (c.since !== null && (typeof c.since !== 'string' || Number.isNaN(Date.parse(c.since)))) return null;
  return { v: 1, kind: 'upstream', since: c.since, before: c.before, gone: c.gone };
}

export const serializeUpstreamCursor = (cursor: UpstreamCursor): string => JSON.stringify(cursor);

/**
 * A full pass without a cursor or a watermark, or when the counts no longer add up (the list
 * below the watermark changed); otherwise only what was listed since the watermark.
 */
export function chooseUpstreamPass(cursor: UpstreamCursor | null, totals: UpstreamTotals | null): UpstreamPass {
  if (cursor === null || cursor.since === null || totals === null) return { mode: 'full' };
  if (totals.all !== cursor.before + totals.sinceWatermark) return { mode: 'full' };
  return { mode: 'since', since: cursor.since };
}

/** The newest of the created_at values read, or `previous` when none is newer (or none was read). */
export function newestTime(previous: string | null, createdAts: Iterable<string>): string | null {
  let best = previous;
  let bestMs = previous === null ? -Infinity : Date.parse(previous);
  for (const at of createdAts) {
    const ms = Date.parse(at);
    if (!Number.isNaN(ms) && ms > bestMs) {
      best = at;
      bestMs = ms;
    }
  }
  return best;
}

/**
 * Offset paging over a list that may change while it is read: a removal before the offset shifts
 * an unread scan to a page already read. The pass is complete only when the distinct ids read
 * reach the total the last page reported; otherwise it is read again.
 */
export function passComplete(distinctIdsRead: number, lastTotal: number): boolean {
  return distinctIdsRead >= lastTotal;
}

/** The next offset, or null when the pass has read everything the remote says it has. */
export function nextOffset(offset: number, pageLength: number, total: number): number | null {
  if (pageLength === 0) return null;
  const next = offset + pageLength;
  return next >= total ? null : next;
}
