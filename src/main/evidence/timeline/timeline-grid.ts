/**
 * A timeline's summary pyramid (pure, no I/O). Level 0 cuts time from the first entry's timestamp
 * (`origin`) into cells of `width` ms; cell c of level k+1 covers cells 2c and 2c+1 of level k. A
 * cell holds the count, the token sum, min and max of the entries inside it; empty cells are
 * absent. Any range of whole level-0 cells is the sum of at most two aligned cells per level, so a
 * chart of a million entries reads a few hundred summary rows.
 *
 * Only the cells where entries meet are kept: the non-empty level-0 cells, and each cell whose two
 * halves both hold entries. A cell with one non-empty half says what that half says, so it is not
 * kept again: the kept cell it repeats is filed under the highest level it stands for (`level`,
 * its `cell` there) and remembers the lowest (`low`) and its first level-0 cell (`first`). So a
 * pyramid over m level-0 cells is at most 2m − 1 rows however far apart its entries are; keeping
 * every level's cells made an entry alone in its stretch of time one row per level above it, up
 * to 47 rows each over ten thousand years.
 */
export interface Cell extends Aggregate {
  /** Its index on the highest level it stands for (the level it is filed under). */
  cell: number;
  /** The lowest level it stands for: where its entries split in two; 0 for a level-0 cell. */
  low: number;
  /** The index of its first non-empty level-0 cell. */
  first: number;
}

/** A pyramid whose cells come one at a time, in one object used again: copy what is kept. */
export interface CellStream {
  origin: number;
  width: number;
  levels: number;
  cells(): Iterable<LevelCell>;
}

export interface Grid {
  origin: number;
  /** Level 0's cell width in ms, a power of two. */
  width: number;
  /** levels[k]: the kept cells filed under level k, in order; the last level holds one, the whole timeline. */
  levels: Cell[][];
}

/**
 * Timelines up to this long are summarised in memory when charted (reading them costs about what
 * reading their summary would); longer ones get a stored pyramid when written.
 */
export const GRID_MIN_ENTRIES = 4096;

/** Level 0 stays under this many cells: a timeline's pyramid is at most twice as many rows. */
export const MAX_BASE_CELLS = 1 << 16;

const TWO_32 = 2 ** 32;

/** Index on level `levels` up of level-0 cell `index` (a shift right, for indexes past 32 bits). */
export const cellAbove = (index: number, levels: number): number => Math.floor(index / 2 ** levels);

/**
 * The level where level-0 cells a and b first share a cell: the bit length of a XOR b, for
 * indexes up to 2^53 (bitwise operators see 32 bits).
 */
export function meetLevel(a: number, b: number): number {
  const high = (Math.floor(a / TWO_32) ^ Math.floor(b / TWO_32)) >>> 0;
  if (high !== 0) return 64 - Math.clz32(high);
  return 32 - Math.clz32(((a % TWO_32) ^ (b % TWO_32)) >>> 0);
}

const add = (into: Aggregate, from: Aggregate): void => {
  into.count += from.count;
  into.tokens += from.tokens;
  if (from.min < into.min) into.min = from.min;
  if (from.max > into.max) into.max = from.max;
};

const NO_CELLS = new Float64Array(0);

/**
 * Level 0 while the builder reads entries, a column per field: a million-entry timeline makes
 * hundreds of thousands of cells on the way (every entry one while cells are narrower than the
 * gaps between entries), each an object the collector had to move, where these arrays are
 * filled again. They grow by doubling up to the builder's limit, so a short timeline's are small
 * (and a builder never pushed to, one per scan of an import, has none).
 */
class BaseCells {
  length = 0;
  cell: Float64Array = NO_CELLS;
  count: Float64Array = NO_CELLS;
  tokens: Float64Array = NO_CELLS;
  min: Float64Array = NO_CELLS;
  max: Float64Array = NO_CELLS;

  /** Adds an entry to the last cell when it is `index`; false when it is not (or there is none). */
  addToLast(index: number, tokens: number): boolean {
    const last = this.length - 1;
    if (last < 0 || this.cell[last] !== index) return false;
    this.count[last] = this.count[last]! + 1;
    this.tokens[last] = this.tokens[last]! + tokens;
    if (tokens < this.min[last]!) this.min[last] = tokens;
    if (tokens > this.max[last]!) this.max[last] = tokens;
    return true;
  }

  lastCell(): number | undefined {
    return this.length === 0 ? undefined : this.cell[this.length - 1];
  }

  /** A new last cell `index` holding one entry. */
  append(index: number, tokens: number): void {
    if (this.length === this.cell.length) this.grow();
    const at = this.length++;
    this.cell[at] = index;
    this.count[at] = 1;
    this.tokens[at] = tokens;
    this.min[at] = tokens;
    this.max[at] = tokens;
  }

  /**
   * Level 0 at twice the width, in place: a million-entry timeline coarsens its level 0 a dozen
   * times while it streams past. The width doubles at most once per bit of the timeline's span,
   * so the work stays bounded by n plus about 50 passes over MAX_BASE_CELLS cells whatever the
   * spread.
   */
  coarsen(): void {
    const { cell, count, tokens, min, max } = this;
    let kept = 0;
    for (let i = 0; i < this.length; i++) {
      const parent = Math.floor(cell[i]! / 2);
      const last = kept - 1;
      if (kept > 0 && cell[last] === parent) {
        count[last] = count[last]! + count[i]!;
        tokens[last] = tokens[last]! + tokens[i]!;
        if (min[i]! < min[last]!) min[last] = min[i]!;
        if (max[i]! > max[last]!) max[last] = max[i]!;
      } else {
        cell[kept] = parent;
        count[kept] = count[i]!;
        tokens[kept] = tokens[i]!;
        min[kept] = min[i]!;
        max[kept] = max[i]!;
        kept += 1;
      }
    }
    this.length = kept;
  }

  private grow(): void {
    const larger = (column: Float64Array): Float64Array => {
      const next = new Float64Array(Math.max(16, column.length * 2));
      next.set(column);
      return next;
    };
    this.cell = larger(this.cell);
    this.count = larger(this.count);
    this.tokens = larger(this.tokens);
    this.min = larger(this.min);
    this.max = larger(this.max);
  }
}

/**
 * Builds a Grid from entries pushed in timestamp order, in one pass and bounded memory: it starts
 * with 1 ms cells and doubles their width whenever level 0 would grow past maxCells.
 */
export class GridBuilder {
  private origin: number | undefined;
  private width = 1;
  private readonly cells = new BaseCells();

  constructor(private readonly maxCells = MAX_BASE_CELLS) {}

  push(timestamp: number, tokens: number): void {
    this.origin ??= timestamp;
    const index = Math.floor((timestamp - this.origin) / this.width);
    const cells = this.cells;
    if (cells.addToLast(index, tokens)) return;
    const last = cells.lastCell();
    if (last !== undefined && index < last) throw new Error('timeline entries must come in timestamp order');
    cells.append(index, tokens);
    if (cells.length > this.maxCells) {
      cells.coarsen();
      this.width *= 2;
    }
  }

  /** The pyramid, or undefined for an empty timeline. */
  finish(): Grid | undefined {
    const pyramid = this.pyramid();
    if (!pyramid) return undefined;
    const levels: Cell[][] = Array.from({ length: pyramid.levels }, () => []);
    for (const { level, ...cell } of pyramid.cells()) levels[level]!.push(cell);
    return { origin: pyramid.origin, width: pyramid.width, levels };
  }

  /**
   * The pyramid as its cells come, to be written as they come (a million entries' are up to
   * 131,071, which as objects were the largest thing a long import's closing transaction held),
   * or undefined for an empty timeline. Its cells are read once, as finish() would give them.
   */
  pyramid(): CellStream | undefined {
    if (this.origin === undefined) return undefined;
    const cells = this.cells;
    return { origin: this.origin, width: this.width, levels: levelsOf(cells), cells: () => keptCellsOf(cells) };
  }
}

/** A kept cell while its right side is still being read, with the total of what it holds so far. */
interface OpenCell extends Aggregate {
  low: number;
  first: number;
}

/**
 * The kept cells of level-0 cells `base` (in order, the first one cell 0), in one pass: the cells
 * along the right edge of what has been read wait on a stack until an entry lands outside them,
 * which fixes the level of the cell above them and so the highest level they stand for. Two
 * neighbouring level-0 cells a and b meet in one kept cell at meetLevel(a, b). Each is handed
 * over in one object used again for the next: a consumer copies what it keeps.
 */
function* keptCellsOf(base: BaseCells): Generator<LevelCell, void, undefined> {
  const out: LevelCell = { level: 0, cell: 0, low: 0, first: 0, count: 0, tokens: 0, min: 0, max: 0 };
  const kept = (open: OpenCell, aboveLow: number): LevelCell => {
    out.level = aboveLow - 1;
    out.cell = cellAbove(open.first, out.level);
    out.low = open.low;
    out.first = open.first;
    out.count = open.count;
    out.tokens = open.tokens;
    out.min = open.min;
    out.max = open.max;
    return out;
  };
  const stack: OpenCell[] = [];
  let previous = 0;
  for (let i = 0; i <= base.length; i++) {
    // Past the last cell every open cell closes, the outermost as the top level's one cell.
    const end = i === base.length;
    const cell = end ? 0 : base.cell[i]!;
    if (stack.length > 0) {
      const low = end ? Infinity : meetLevel(previous, cell);
      // The open cells below `low` close, each into the one under it.
      let done: OpenCell | undefined;
      while (stack.length > 0 && stack[stack.length - 1]!.low < low) {
        const open = stack.pop()!;
        if (done) {
          add(open, done);
          yield kept(done, open.low);
        }
        done = open;
      }
      if (end) {
        yield kept(done!, levelsOf(base));
        return;
      }
      yield kept(done!, low);
      // The cell above takes the closed one's place: its totals so far are the closed one's.
      done!.low = low;
      stack.push(done!);
    }
    stack.push({
      low: 0,
      first: cell,
      count: base.count[i]!,
      tokens: base.tokens[i]!,
      min: base.min[i]!,
      max: base.max[i]!,
    });
    previous = cell;
  }
}

/** How many levels the pyramid of `base` has: up to the one cell holding them all. */
const levelsOf = (base: BaseCells): number => meetLevel(0, base.cell[base.length - 1]!) + 1;

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
  /** Whole level-0 cells inside, as aligned cells (kept or not; keptRanges says where to read them). */
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

/** A kept cell with the level it is filed under. */
export interface LevelCell extends Cell {
  level: number;
}

/** The kept cells of `levels` filed in `ranges`, straight from an in-memory pyramid. */
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
 * Where the kept cells that stand for aligned `cells` are filed: a kept cell is filed under the
 * highest level it stands for, so an aligned cell's is at its own level or one above, under the
 * cell that holds it there. Ranges per level, merged: the window's two ends and its middle.
 */
export function keptRanges(cells: readonly CellRange[], levels: number): CellRange[] {
  const ranges: CellRange[] = [];
  for (const { level, from, to } of mergeRanges(cells)) {
    for (let above = level; above < levels; above++) {
      const up = above - level;
      ranges.push({ level: above, from: cellAbove(from, up), to: cellAbove(to - 1, up) + 1 });
    }
  }
  return mergeRanges(ranges);
}

/**
 * Sums located kept cells and raw parts into their buckets: `cells` in any order (as a query
 * returns them), `raws` in the order of the plans' raw ranges. A kept cell counts for the one
 * aligned cell of a plan it stands for, if any (aligned cells of the plans never overlap, and the
 * ones a kept cell stands for all hold each other); one read for its neighbours counts for none.
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
    for (let level = cell.low; level <= cell.level; level++) {
      const i = owner.get(`${level}:${cellAbove(cell.first, level)}`);
      if (i !== undefined) {
        parts[i]!.push(cell);
        break;
      }
    }
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
