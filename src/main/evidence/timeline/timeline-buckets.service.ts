import type { TimelineBucket } from '../../../shared/api/evidence';
import { formatTimestamp, LAST_TIMESTAMP_MS } from '../../../shared/time';
import { type Db, type ScanRow, inTransaction } from '../../db/index';
import { notFound } from '../../domain-error';
import { findVisibleScan } from '../../scans/scans.repository';
import { timelineTupleChunks } from './timeline-reads.repository';
import { timelineAggregate, timelineBounds, violationBucketCounts } from './timeline-windows.repository';
import { findCells, findGrid, insertGrid } from './timeline-cells.repository';
import {
  cellsIn,
  GRID_MIN_ENTRIES,
  GridBuilder,
  keptRanges,
  planBuckets,
  sumBuckets,
  type CellRange,
  type Grid,
  type LevelCell,
} from './timeline-grid';

/** Where a timeline's cells come from: its stored pyramid, or one built in memory just now. */
interface CellSource {
  origin: number;
  width: number;
  levels: number;
  cells(ranges: readonly CellRange[]): Promise<LevelCell[]> | LevelCell[];
}

const inMemory = (grid: Grid): CellSource => ({
  origin: grid.origin,
  width: grid.width,
  levels: grid.levels.length,
  cells: (ranges) => cellsIn(grid.levels, ranges),
});

async function buildGrid(db: Db, scanId: string): Promise<Grid | undefined> {
  const builder = new GridBuilder();
  for await (const rows of timelineTupleChunks(db, scanId)) {
    for (const [, timestamp, , tokens] of rows) builder.push(timestamp, tokens);
  }
  return builder.finish();
}

/**
 * Stores the pyramid of a long timeline written before pyramids existed (or by a bulk loader),
 * the first time it is charted; a concurrent request that stored it first wins.
 */
async function storeMissingGrid(db: Db, scanId: string, grid: Grid): Promise<void> {
  await inTransaction(
    db,
    async (trx) => {
      if (!(await findGrid(trx, scanId))) await insertGrid(db, trx, scanId, grid);
    },
    { isolation: 'read committed' },
  );
}

async function cellSource(db: Db, scan: ScanRow): Promise<CellSource | undefined> {
  const stored = await findGrid(db, scan.id);
  if (stored) return { ...stored, cells: (ranges) => findCells(db, scan.id, ranges) };
  const grid = await buildGrid(db, scan.id);
  if (!grid) return undefined;
  if (scan.request_count > GRID_MIN_ENTRIES) await storeMissingGrid(db, scan.id, grid);
  return inMemory(grid);
}

/**
 * At most `n` equal-time buckets over a scan's timeline, or over [since, until) of it (zoom),
 * aligned to its summary grid: every bucket but the two at the window's ends is one stored cell,
 * and those two add at most two raw ranges, read over the timestamp index. Empty buckets are left
 * out. Exact: each bucket's numbers are those of the entries in [start, end).
 */
export async function timelineBuckets(
  db: Db,
  userId: string,
  scanId: string,
  n: number,
  window: { since?: number | undefined; until?: number | undefined } = {},
): Promise<TimelineBucket[]> {
  const scan = await findVisibleScan(db, scanId, userId);
  if (!scan) throw notFound('scan');
  const bounds = await timelineBounds(db, scanId);
  if (!bounds) return [];
  const since = Math.max(window.since ?? bounds.first, bounds.first);
  const until = Math.min(window.until ?? bounds.last + 1, bounds.last + 1);
  if (until <= since) return [];
  const source = await cellSource(db, scan);
  if (!source) return [];
  const { step, buckets } = planBuckets(source, since, until, n);
  const [cells, raws, violations] = await Promise.all([
    source.cells(
      keptRanges(
        buckets.flatMap((plan) => plan.cells),
        source.levels,
      ),
    ),
    Promise.all(buckets.flatMap((plan) => plan.raw).map((r) => timelineAggregate(db, scanId, r.from, r.to))),
    violationBucketCounts(db, scanId, { origin: source.origin, width: step, since, until }),
  ]);
  const totals = sumBuckets(buckets, cells, raws);
  const answer: TimelineBucket[] = [];
  for (const [i, plan] of buckets.entries()) {
    const total = totals[i]!;
    if (total.count === 0) continue;
    answer.push({
      start: formatTimestamp(plan.start),
      // The instant after 9999-12-31T23:59:59.999Z has no contract form: a bucket that would end
      // there ends at that last instant instead, which it then includes.
      end: formatTimestamp(Math.min(plan.end, LAST_TIMESTAMP_MS)),
      count: total.count,
      tokens: total.tokens,
      min_tokens: total.min,
      max_tokens: total.max,
      violations: violations.get(plan.index) ?? 0,
    });
  }
  return answer;
}
