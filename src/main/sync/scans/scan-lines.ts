import { Readable } from 'node:stream';
import {
  SYNC_ANSWER_MAX_BYTES,
  SYNC_LINE_ENTRIES_MAX,
  SYNC_LINE_MAX_BYTES,
  type SyncScanLine,
  type SyncScanSkipped,
  type SyncTimelineEntry,
} from '../../../shared/api/sync';
import type { TokenBreakdown } from '../../../shared/api/scans';
import type { Db, ScanRow } from '../../db/index';
import { timelineInfos, timelinesTupleChunks } from '../../evidence/timeline/timeline-batch-reads.repository';
import { TIMELINE_CHUNK } from '../../evidence/timeline/timeline-entry';
import { toScan } from '../../scans/scan-mapping';
import { findViolationsOf } from '../../scans/scans.repository';

// The lines of `POST /v1/sync/scans` (docs/contract/api.md#sync): a line per asked id, in the
// order asked, read a group at a time (a statement per kind for the group, as the export reads)
// and only once the reader has taken the previous group, so memory stays bounded. A scan that
// would not fit a line (a long timeline, or a line over the byte cap), and every scan once the
// answer is at its cap, is answered `skipped: package`: the caller fetches it as an evidence
// package, which streams any size.

/** Scans read together: one statement per kind for the group. */
const GROUP_SCANS = 100;

/** A skipped line's most bytes: an id is at most 100 characters. */
const SKIPPED_MAX_BYTES = 160;

const line = (value: SyncScanLine | SyncScanSkipped): Buffer => Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');

/** The answer for `ids` (the caller's asked order), `found` the visible ones among them. */
export function syncScanLines(db: Db, ids: readonly string[], found: ReadonlyMap<string, ScanRow>): Readable {
  let bytes = 0;
  let at = 0;
  let written = 0;

  async function group(): Promise<Buffer[]> {
    const asked = ids.slice(at, at + GROUP_SCANS);
    at += asked.length;
    const scans = asked.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
    const scanIds = scans.map((scan) => scan.id);
    const [violations, infos] = await Promise.all([findViolationsOf(db, scanIds), timelineInfos(db, scanIds)]);
    const short = [...infos.values()].filter(
      (info) => info.timelineId !== undefined && !info.summarised && info.count <= SYNC_LINE_ENTRIES_MAX,
    );
    const tuples = new Map<number, SyncTimelineEntry[]>(short.map((info) => [info.timelineId!, []]));
    for await (const rows of timelinesTupleChunks(
      db,
      short.map((info) => info.timelineId!),
      TIMELINE_CHUNK,
    )) {
      for (const { timelineId, tuple } of rows) tuples.get(timelineId)!.push([tuple[1], tuple[2], tuple[3]]);
    }
    const out: Buffer[] = [];
    for (const id of asked) {
      const scan = found.get(id);
      if (!scan) {
        const gone = line({ id, skipped: 'gone' });
        bytes += gone.length;
        written += 1;
        out.push(gone);
        continue;
      }
      const info = infos.get(id)!;
      const timeline = info.timelineId === undefined ? [] : tuples.get(info.timelineId);
      let bytesOf: Buffer | undefined;
      if (timeline) {
        bytesOf = line({
          scan: toScan(scan, violations.get(id)!),
          evidence: {
            request_count: info.count,
            total_tokens: info.tokens,
            token_breakdown: JSON.parse(scan.token_breakdown) as TokenBreakdown,
          },
          timeline,
        });
      }
      // Every line after this one still needs room, at least a skipped one's.
      const room = SYNC_ANSWER_MAX_BYTES - bytes - (ids.length - written - 1) * SKIPPED_MAX_BYTES;
      if (!bytesOf || bytesOf.length > SYNC_LINE_MAX_BYTES || bytesOf.length > room) {
        bytesOf = line({ id, skipped: 'package' });
      }
      bytes += bytesOf.length;
      written += 1;
      out.push(bytesOf);
    }
    return out;
  }

  return Readable.from(
    (async function* () {
      while (at < ids.length) yield Buffer.concat(await group());
    })(),
    { objectMode: false },
  );
}
