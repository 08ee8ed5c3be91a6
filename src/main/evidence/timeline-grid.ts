/**
 * A timeline's summary pyramid (pure, no I/O). Level 0 cuts time from the first entry's timestamp
 * (`origin`) into cells of `width` ms; each higher level merges pairs (cell c of level k+1 covers
 * cells 2c and 2c+1 of level k). A cell holds the count, the token sum, min and max of the
 * entries inside it; empty cells are absent. Any range of whole level-0 cells is the sum of at
 * most two cells per level, so a chart of a million entries reads a few hundred summary rows.
 */
export interface Cell extends Aggregate {
  cell: number;
}

export interface Grid {
  origin: number;
  /** Level 0's cell width in ms, a power of two. */
  width: number;
  /** levels[k], cells in order; the last level has a single cell. */
  levels: Cell[][];
}

/**
 * Timelines up to this long are summarised in memory when charted (reading them costs about what
 * reading their summary would); longer ones get a stored pyramid when written.
 */
export const GRID_MIN_ENTRIES = 4096;

/** Level 0 stays under this many cells: a timeline's pyramid is at most twice as many rows. */
export const MAX_BASE_CELLS = 1 << 16;

const add = (into: Aggregate, from: Aggregate): void => {
  into.count += from.count;
  into.tokens += from.tokens;
  if (from.min < into.min) into.min = from.min;
  if (from.max > into.max) into.max = from.max;
};

/** Cells of the level above: pairs merged. */
export function coarsen(cells: readonly Cell[]): Cell[] {
  const out: Cell[] = [];
  for (const cell of cells) {
    const parent = Math.floor(cell.cell / 2);
    const last = out[out.length - 1];
    if (last && last.cell === parent) add(last, cell);
    else out.push({ ...cell, cell: parent });
  }
  return out;
}

/**
 * coarsen() for a level nobody else holds, reusing its cells: a million-entry timeline coarsens
 * its level 0 a dozen times while it streams past, and new cells for each cost a fifth of an import.
 */
function coarsenInPlace(cells: Cell[]): void {
  let kept = 0;
  for (const cell of cells) {
    const parent = Math.floor(cell.cell / 2);
    const last = kept > 0 ? cells[kept - 1]! : undefined;
    if (last && last.cell === parent) add(last, cell);
    else {
      cell.cell = parent;
      cells[kept++] = cell;
    }
  }
  cells.length = kept;
}

/**
 * Builds a Grid from entries pushed in timestamp order, in one pass and bounded memory: it starts
 * with 1 ms cells and doubles their width whenever level 0 would grow past maxCells.
 */
export class GridBuilder {
  private origin: number | undefined;
  private width = 1;
  private cells: Cell[] = [];

  constructor(private readonly maxCells = MAX_BASE_CELLS) {}

  push(timestamp: number, tokens: number): void {
    this.origin ??= timestamp;
    const index = Math.floor((timestamp - this.origin) / this.width);
    const last = this.cells[this.cells.length - 1];
    if (last && last.cell === index) {
      last.count += 1;
      last.tokens += tokens;
      if (tokens < last.min) last.min = tokens;
      if (tokens > last.max) last.max = tokens;
      return;
    }
    if (last && index < last.cell) throw new Error('timeline entries must come in timestamp order');
    this.cells.push({ cell: index, count: 1, tokens, min: tokens, max: tokens });
    if (this.cells.length > this.maxCells) {
      coarsenInPlace(this.cells);
      this.width *= 2;
    }
  }

  /** The pyramid, or undefined for an empty timeline. */
  finish(): Grid | undefined {
    if (this.origin === undefined) return undefined;
    const levels = [this.cells];
    // Cell 0 holds the first entry, so a level of one cell is the top.
    while (levels[levels.length - 1]!.length > 1) {
      levels.push(coarsen(levels[levels.length - 1]!));
    }
    return { origin: this.origin, width: this.width, levels };
  }
}

/** A run of consecutive cells [from, to) of one level. */
export interface CellRange {
  level: number;
  from: number;
  to: number;
}

/**
 * The level-0 cell range [from, to) as aligned cells: at most two per level (the segment-tree
 * decomposition), as ranges per level, at most `levels` − 1 levels up.
 */
export function decompose(from: number, to: number, levels: number): CellRange[] {
  const ranges: CellRange[] = [];
  let level = 0;
  while (from < to) {
    if (level === levels - 1) {
      ranges.push({ level, from, to });
      break;
    }
    if (from % 2 === 1) ranges.push({ level, from, to: ++from });
    if (to % 2 === 1 && from < to) ranges.push({ level, from: --to, to: to + 1 });
    from /= 2;
    to /= 2;
    level += 1;
  }
  return ranges;
}

/** One bucket as the API answers it: [start, end), aggregated. */
export interface BucketPlan {
  /** floor((start − origin) / step): the bucket's place on the aligned grid. */
  index: number;
  start: number;
  end: number;
  /** Whole level-0 cells inside, as aligned ranges. */
  cells: CellRange[];
  /** Ranges of time [from, to) at the window's ends that cut a level-0 cell: read raw. */
  raw: { from: number; to: number }[];
}

/**
 * Buckets over [since, until) (ms, already clipped to the timeline) for at most `n` buckets: the
 * bucket width `step` is level 0's width times the smallest power of two that needs no more than
 * n buckets, and buckets are aligned to the grid, so every bucket but the two at the window's
 * ends is exactly one cell of one level. Buckets at the ends are clipped to the window.
 */
export function planBuckets(
  grid: Pick<Grid, 'origin' | 'width'> & { levels: number },
  since: number,
  until: number,
  n: number,
): { step: number; buckets: BucketPlan[] } {
  const { origin, width } = grid;
  if (until <= since) return { step: width, buckets: [] };
  let step = width;
  const bucketsAt = (size: number) => Math.floor((until - 1 - origin) / size) - Math.floor((since - origin) / size) + 1;
  while (bucketsAt(step) > n) step *= 2;
  const buckets: BucketPlan[] = [];
  for (let index = Math.floor((since - origin) / step); origin + index * step < until; index++) {
    const start = Math.max(since, origin + index * step);
    const end = Math.min(until, origin + (index + 1) * step);
    // Whole level-0 cells inside [start, end), and the cut cells' parts at either end.
    const first = Math.ceil((start - origin) / width);
    const last = Math.floor((end - origin) / width);
    const raw: { from: number; to: number }[] = [];
    let cells: CellRange[] = [];
    if (first >= last) {
      raw.push({ from: start, to: end });
    } else {
      if (origin + first * width > start) raw.push({ from: start, to: origin + first * width });
      cells = decompose(first, last, grid.levels);
      if (origin + last * width < end) raw.push({ from: origin + last * width, to: end });
    }
    buckets.push({ index, start, end, cells, raw });
  }
  return { step, buckets };
}

/** Count, token sum, min and max of some entries; count 0 for none. */
export interface Aggregate {
  count: number;
  tokens: number;
  min: number;
  max: number;
}

export const EMPTY: Aggregate = { count: 0, tokens: 0, min: Infinity, max: -Infinity };

export function combine(parts: readonly Aggregate[]): Aggregate {
  const total = { ...EMPTY };
  for (const part of parts) if (part.count > 0) add(total, part);
  return total;
}

/** A cell with its level: where it sits in the pyramid. */
export interface LevelCell extends Cell {
  level: number;
}

/** The cells of `levels` that fall in `ranges`, straight from an in-memory pyramid. */
export function cellsIn(levels: readonly (readonly Cell[])[], ranges: readonly CellRange[]): LevelCell[] {
  const out: LevelCell[] = [];
  for (const { level, from, to } of ranges) {
    const cells = levels[level] ?? [];
    let low = 0;
    let high = cells.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cells[mid]!.cell < from) low = mid + 1;
      else high = mid;
    }
    for (let at = low; at < cells.length && cells[at]!.cell < to; at++) out.push({ ...cells[at]!, level });
  }
  return out;
}

/**
 * Sums located cells and raw parts into their buckets: `cells` in any order (as a query returns
 * them), `raws` in the order of the plans' raw ranges.
 */
export function sumBuckets(
  plans: readonly BucketPlan[],
  cells: readonly LevelCell[],
  raws: readonly Aggregate[],
): Aggregate[] {
  const owner = new Map<string, number>();
  for (const [i, plan] of plans.entries()) {
    for (const range of plan.cells) for (let c = range.from; c < range.to; c++) owner.set(`${range.level}:${c}`, i);
  }
  const parts = plans.map(() => [] as Aggregate[]);
  for (const cell of cells) {
    const i = owner.get(`${cell.level}:${cell.cell}`);
    if (i !== undefined) parts[i]!.push(cell);
  }
  let raw = 0;
  for (const [i, plan] of plans.entries()) for (let r = 0; r < plan.raw.length; r++) parts[i]!.push(raws[raw++]!);
  return parts.map(combine);
}

/** The same cells as fewer ranges: adjacent ranges of one level merged (one query term each). */
export function mergeRanges(ranges: readonly CellRange[]): CellRange[] {
  const sorted = [...ranges].sort((a, b) => a.level - b.level || a.from - b.from);
  const merged: CellRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.level === range.level && last.to >= range.from) last.to = Math.max(last.to, range.to);
    else merged.push({ ...range });
  }
  return merged;
}
