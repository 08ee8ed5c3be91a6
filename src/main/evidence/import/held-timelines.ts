import type { Violation } from '../../../shared/api/scans';
import {
  BulkInserter,
  dialectOf,
  rowSample,
  SCAN_SAMPLE_COLUMNS,
  VIOLATION_SAMPLE,
  type Db,
  type Executor,
  type NewScan,
} from '../../db/index';
import { GridRecorder, type PyramidParts } from '../timeline/timeline-cells.repository';
import { GRID_MIN_ENTRIES } from '../timeline/timeline-grid';
import { newTimelineIds, timelineInserter, timelinesInserter } from '../timeline/timeline-writes.repository';
import { adoptStagedTimeline } from './staged-timelines.repository';
import type { NewScanWriter } from './store-sinks';

// A package of many small scans is stored in a few statements: each short timeline is held in
// memory as it is checked and written with its scan by the closing transaction, multi-row, where
// staging it would cost a transaction of its own per scan. Held entries are bounded per scan and
// per package, so memory stays bounded and the closing transaction short (about 100,000 entries
// are a few hundred ms of SQLite's writer); a longer timeline is staged, a step at a time
// (staged-timelines.repository.ts).

/** The columns of a stored package scan, in the order they are pushed. */
const PACKAGE_SCAN_SAMPLE = rowSample('scans', [
  ...SCAN_SAMPLE_COLUMNS,
  'package_id',
  'package_origin',
  'origin_remote_id',
  'origin_id',
]);

/** A new scan the closing transaction stores: its row, its violations and its timeline. */
export interface NewPackageScan {
  row: NewScan;
  violations: readonly Violation[];
  writer: NewScanWriter;
}

/**
 * Stores new package scans inside the closing transaction `trx` on `db`: their rows, timelines
 * (held ones written here, staged ones adopted), pyramids and violations, rows of a kind at once.
 * Scans go first (timelines and violations refer to them), violations after their scans, as a
 * scan stored alone has them (the rollup triggers).
 */
export async function storeNewPackageScans(
  db: Db,
  trx: Executor,
  scans: readonly NewPackageScan[],
  /** What of the staged timelines' pyramids to write: what storeStagedCells left. */
  stagedPyramids: PyramidParts = 'whole',
): Promise<void> {
  if (scans.length === 0) return;
  const rows = new BulkInserter(db, trx, 'scans', PACKAGE_SCAN_SAMPLE, 100);
  for (const { row } of scans) {
    const written = rows.push(
      row.id,
      row.created_at,
      row.tool,
      row.action,
      row.tokens,
      row.status,
      row.source,
      row.organization_id ?? null,
      row.submitted_by,
      row.token_breakdown,
      row.request_count,
      row.violation_count,
      row.worst_severity,
      row.change_seq,
      row.package_id ?? null,
      row.package_origin ?? null,
      row.origin_remote_id ?? null,
      row.origin_id ?? null,
    );
    if (written) await written;
  }
  await rows.flush();

  await storeTimelines(
    db,
    trx,
    scans.map(({ row, writer }) => ({ scanId: row.id, writer })),
    stagedPyramids,
  );

  const violations = new BulkInserter(db, trx, 'violations', VIOLATION_SAMPLE, 100);
  for (const { row, violations: list } of scans) {
    for (const [seq, v] of list.entries()) {
      const written = violations.push(v.id, row.id, seq, v.rule, v.severity, v.message, v.timeline_index);
      if (written) await written;
    }
  }
  await violations.flush();
}

/**
 * Gives scans the timelines of their writers inside the closing transaction `trx`: held ones
 * written, multi-row, staged ones adopted; with their pyramids.
 */
export async function storeTimelines(
  db: Db,
  trx: Executor,
  scans: readonly { scanId: string; writer: NewScanWriter }[],
  stagedPyramids: PyramidParts = 'whole',
): Promise<void> {
  const held = scans.filter(({ writer }) => writer.held !== null && writer.held.length > 0);
  // After the transaction's first write: on SQLite it then holds the write lock, so the ids are free.
  const ids = await newTimelineIds(trx, held.length);
  const timelines = timelinesInserter(db, trx, 100);
  for (const [i, { scanId }] of held.entries()) {
    const written = timelines.push(ids[i]!, scanId);
    if (written) await written;
  }
  await timelines.flush();
  const entries = timelineInserter(db, trx, 200);
  for (const [i, { scanId, writer }] of held.entries()) {
    const { timestamps, actions, tokens } = writer.held!;
    // A short timeline gets no pyramid (GridRecorder.store): none is built for it either.
    const grid = timestamps.length > GRID_MIN_ENTRIES ? new GridRecorder() : null;
    for (let seq = 0; seq < timestamps.length; seq++) {
      const written = entries.push(ids[i]!, seq, timestamps[seq]!, actions[seq]!, tokens[seq]!);
      if (written) await written;
      grid?.push(timestamps[seq]!, tokens[seq]!);
    }
    if (grid) await grid.store(db, trx, scanId);
  }
  await entries.flush();
  for (const { scanId, writer } of stagedOf(scans)) {
    await adoptStagedTimeline(trx, writer.timeline.id!, scanId);
    await writer.timeline.grid.store(db, trx, scanId, stagedPyramids);
  }
}

const stagedOf = <T extends { writer: NewScanWriter }>(scans: readonly T[]): T[] =>
  scans.filter(({ writer }) => writer.held === null && writer.timeline.id !== undefined);

/**
 * PostgreSQL: the pyramid cells of new scans' staged timelines, written by the closing
 * transaction `trx` before it takes the change sequence: a million entries' cells are a few
 * hundred ms of the server's work, which every submit waiting for the sequence would wait
 * through. Returns what of those pyramids storeNewPackageScans is left to write: their grid rows
 * (PostgreSQL), or the whole pyramids (SQLite, where a cell refers to its grid row, and to its
 * scan through it).
 */
export async function storeStagedCells(
  db: Db,
  trx: Executor,
  scans: readonly { scanId: string; writer: NewScanWriter }[],
): Promise<PyramidParts> {
  if (dialectOf(db) !== 'postgres') return 'whole';
  for (const { scanId, writer } of stagedOf(scans)) await writer.timeline.grid.store(db, trx, scanId, 'cells');
  return 'grid';
}
