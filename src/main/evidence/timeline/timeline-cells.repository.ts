import { BulkInserter, rowSample, type Db, type Executor, type TimelineGridRow } from '../../db/index';
import {
  GRID_MIN_ENTRIES,
  GridBuilder,
  type CellRange,
  type CellStream,
  type Grid,
  type LevelCell,
} from './timeline-grid';

// Every query of `timeline_grids` and `timeline_cells`: a long timeline's summary pyramid.

const CELL_SAMPLE = rowSample('timeline_cells', [
  'scan_id',
  'level',
  'cell',
  'low_level',
  'first_cell',
  'count',
  'tokens',
  'min_tokens',
  'max_tokens',
]);
const CELL_ROWS = 500;

/** Stores a scan's pyramid inside the caller's transaction `trx` on `db`. */
export function insertGrid(db: Db, trx: Executor, scanId: string, grid: Grid): Promise<void> {
  return insertCells(db, trx, scanId, {
    origin: grid.origin,
    width: grid.width,
    levels: grid.levels.length,
    *cells() {
      for (const [level, cells] of grid.levels.entries()) for (const cell of cells) yield { ...cell, level };
    },
  });
}

/** Stores a scan's pyramid inside the caller's transaction `trx` on `db`, a cell as it comes. */
export async function insertCells(db: Db, trx: Executor, scanId: string, grid: CellStream): Promise<void> {
  await insertGridRow(trx, scanId, grid);
  await insertCellRows(db, trx, scanId, grid);
}

async function insertGridRow(trx: Executor, scanId: string, grid: CellStream): Promise<void> {
  await trx
    .insertInto('timeline_grids')
    .values({ scan_id: scanId, origin: grid.origin, width: grid.width, levels: grid.levels })
    .execute();
}

async function insertCellRows(db: Db, trx: Executor, scanId: string, grid: CellStream): Promise<void> {
  const rows = new BulkInserter(db, trx, 'timeline_cells', CELL_SAMPLE, CELL_ROWS);
  const row: Parameters<typeof rows.pushRow>[0] = [scanId, 0, 0, 0, 0, 0, 0, 0, 0];
  for (const c of grid.cells()) {
    row[1] = c.level;
    row[2] = c.cell;
    row[3] = c.low;
    row[4] = c.first;
    row[5] = c.count;
    row[6] = c.tokens;
    row[7] = c.min;
    row[8] = c.max;
    const written = rows.pushRow(row);
    if (written) await written;
  }
  await rows.flush();
}

export async function findGrid(db: Executor, scanId: string): Promise<TimelineGridRow | undefined> {
  const row = await db.selectFrom('timeline_grids').selectAll().where('scan_id', '=', scanId).executeTakeFirst();
  return row && { ...row, origin: Number(row.origin), width: Number(row.width), levels: Number(row.levels) };
}

/** Entry count and token sum from the pyramid's top cell (level `levels` − 1 holds only cell 0, the whole timeline), or undefined without a pyramid. */
export async function gridTotals(db: Executor, scanId: string): Promise<{ count: number; tokens: number } | undefined> {
  const grid = await findGrid(db, scanId);
  if (!grid) return undefined;
  const top = await db
    .selectFrom('timeline_cells')
    .select(['count', 'tokens'])
    .where('scan_id', '=', scanId)
    .where('level', '=', grid.levels - 1)
    .where('cell', '=', 0)
    .executeTakeFirst();
  return top && { count: Number(top.count), tokens: Number(top.tokens) };
}

/**
 * The stored cells of `ranges`, in one statement: a UNION ALL of one index range per cell range
 * (an OR of them made SQLite read every cell of the scan).
 */
export async function findCells(db: Executor, scanId: string, ranges: readonly CellRange[]): Promise<LevelCell[]> {
  if (ranges.length === 0) return [];
  const one = (r: CellRange) =>
    db
      .selectFrom('timeline_cells')
      .select(['level', 'cell', 'low_level', 'first_cell', 'count', 'tokens', 'min_tokens', 'max_tokens'])
      .where('scan_id', '=', scanId)
      .where('level', '=', r.level)
      .where('cell', '>=', r.from)
      .where('cell', '<', r.to);
  const [first, ...rest] = ranges;
  const rows = await rest.reduce((query, r) => query.unionAll(one(r)), one(first!)).execute();
  return rows.map((row) => ({
    level: Number(row.level),
    cell: Number(row.cell),
    low: Number(row.low_level),
    first: Number(row.first_cell),
    count: Number(row.count),
    tokens: Number(row.tokens),
    min: Number(row.min_tokens),
    max: Number(row.max_tokens),
  }));
}

/**
 * What of a pyramid a store writes. The grid row refers to the scan; the cells, on PostgreSQL,
 * refer to nothing (migration 2026_11_29_120000_cascade_bulk_rows_by_trigger), so they may go
 * before the scan row and apart from their grid row, in the same transaction. On SQLite each
 * cell refers to its grid row: `whole` only.
 */
export type PyramidParts = 'whole' | 'grid' | 'cells';

/**
 * Summarises a timeline as a writer streams it in order (import, submit), and stores the pyramid
 * once it is done if the timeline is long: no second read of the entries.
 */
export class GridRecorder {
  private builder = new GridBuilder();
  private entries = 0;

  push(timestamp: number, tokens: number): void {
    this.builder.push(timestamp, tokens);
    this.entries += 1;
  }

  /**
   * Stores the pyramid of what was pushed under `scanId` (if long enough): `parts` says whether
   * its grid row, its cells or both. What was pushed is kept: a PostgreSQL retry of the
   * transaction stores it again, whole.
   */
  async store(db: Db, trx: Executor, scanId: string, parts: PyramidParts = 'whole'): Promise<void> {
    const grid = this.builder.pyramid();
    if (!grid || this.entries <= GRID_MIN_ENTRIES) return;
    if (parts !== 'cells') await insertGridRow(trx, scanId, grid);
    if (parts !== 'grid') await insertCellRows(db, trx, scanId, grid);
  }
}
