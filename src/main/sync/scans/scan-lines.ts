import { Readable } from 'node:stream';
import {
  SYNC_ANSWER_MAX_BYTES,
  SYNC_LINE_ENTRIES_MAX,
  SYNC_LINE_MAX_BYTES,
  type SyncScanLine,
  type SyncScanSkipped,
} from '../../../shared/api/sync';
import type { TokenBreakdown } from '../../../shared/api/scans';
import type { Db, ScanRow } from '../../db/index';
import {
  timelineRefs,
  timelinesAsJson,
  type TimelineRef,
} from '../../evidence/timeline/timeline-batch-reads.repository';
import { toScan } from '../../scans/scan-mapping';
import { findViolationsOf } from '../../scans/scans.repository';

// The lines of `POST /v1/sync/scans` (docs/contract/api.md#scans-for-a-sync): a line per asked
// id, in the order asked, read a group at a time (a statement per kind for the group, as the export
// reads; a group bounded by the rows it holds) and only once the reader has taken the previous
// group, so memory stays bounded. A scan that would not fit a line (a long timeline, or a line over
// the byte cap), and every scan once the answer is at its cap, is answered `skipped: package`: the
// caller fetches it as an evidence package, which streams any size.

/** Scans whose rows of a kind are read in one statement, at most. */
const GROUP_SCANS = 500;
/** Timeline entries and violations a group holds in memory, at most (a scan over it is a group alone). */
const GROUP_ROWS = 50_000;

/** A skipped line's most bytes: an id is at most 100 characters. */
const SKIPPED_MAX_BYTES = 160;

const line = (value: SyncScanSkipped): Buffer => Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');

/** Whether a scan's line can carry its timeline: one the store keeps whole and short. */
const fitsLine = (scan: ScanRow, ref: TimelineRef): boolean =>
  !ref.summarised && scan.request_count <= SYNC_LINE_ENTRIES_MAX;

/** A scan's line, its timeline the JSON text the store built (timelinesAsJson). */
function scanLine(fields: Omit<SyncScanLine, 'timeline'>, timeline: string): Buffer {
  const head = JSON.stringify(fields);
  return Buffer.from(`${head.slice(0, -1)},"timeline":${timeline}}\n`, 'utf8');
}

/** The answer for `ids` (the caller's asked order), `found` the visible ones among them. */
export function syncScanLines(db: Db, ids: readonly string[], found: ReadonlyMap<string, ScanRow>): Readable {
  let bytes = 0;
  let written = 0;

  /** The lines of `asked`, whose timelines are `refs`: their rows read together. */
  async function group(asked: readonly string[], refs: ReadonlyMap<string, TimelineRef>): Promise<Buffer> {
    const scanIds = asked.filter((id) => found.has(id));
    const short = scanIds.flatMap((id) => {
      const ref = refs.get(id)!;
      return ref.timelineId !== undefined && fitsLine(found.get(id)!, ref) ? [ref.timelineId] : [];
    });
    const [violations, timelines] = await Promise.all([findViolationsOf(db, scanIds), timelinesAsJson(db, short)]);
    const out: Buffer[] = [];
    for (const id of asked) {
      const scan = found.get(id);
      let bytesOf: Buffer | undefined;
      if (!scan) {
        bytesOf = line({ id, skipped: 'gone' });
      } else {
        const { timelineId } = refs.get(id)!;
        const timeline = timelineId === undefined ? { json: '[]', count: 0, tokens: 0 } : timelines.get(timelineId);
        if (timeline !== undefined && timeline.count <= SYNC_LINE_ENTRIES_MAX) {
          bytesOf = scanLine(
            {
              scan: toScan(scan, violations.get(id)!),
              evidence: {
                request_count: timeline.count,
                total_tokens: timeline.tokens,
                token_breakdown: JSON.parse(scan.token_breakdown) as TokenBreakdown,
              },
            },
            timeline.json,
          );
        }
        // Every line after this one still needs room, at least a skipped one's.
        const room = SYNC_ANSWER_MAX_BYTES - bytes - (ids.length - written - 1) * SKIPPED_MAX_BYTES;
        if (!bytesOf || bytesOf.length > SYNC_LINE_MAX_BYTES || bytesOf.length > room) {
          bytesOf = line({ id, skipped: 'package' });
        }
      }
      bytes += bytesOf.length;
      written += 1;
      out.push(bytesOf);
    }
    return Buffer.concat(out);
  }

  return Readable.from(
    (async function* () {
      for (let at = 0; at < ids.length; at += GROUP_SCANS) {
        const asked = ids.slice(at, at + GROUP_SCANS);
        const refs = await timelineRefs(
          db,
          asked.filter((id) => found.has(id)),
        );
        // Split where the rows held would pass GROUP_ROWS: a long timeline is not read (it is a package).
        let from = 0;
        let rows = 0;
        for (let i = 0; i < asked.length; i++) {
          const scan = found.get(asked[i]!);
          const weight = scan
            ? scan.violation_count + (fitsLine(scan, refs.get(asked[i]!)!) ? scan.request_count : 0)
            : 0;
          if (i > from && rows + weight > GROUP_ROWS) {
            yield await group(asked.slice(from, i), refs);
            from = i;
            rows = 0;
          }
          rows += weight;
        }
        yield await group(asked.slice(from), refs);
      }
    })(),
    { objectMode: false },
  );
}
