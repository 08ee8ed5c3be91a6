import { describe, expect, it } from 'vitest';
import {
  cellsIn,
  combine,
  decompose,
  GridBuilder,
  keptRanges,
  MAX_BASE_CELLS,
  meetLevel,
  mergeRanges,
  planBuckets,
  sumBuckets,
  type Aggregate,
  type Grid,
} from '../../../../src/main/evidence/timeline/timeline-grid';
import { seededRandom } from '../../../fixtures/seeded-random';

type Entry = { timestamp: number; tokens: number };

function timeline(next: () => number, length: number): Entry[] {
  const entries: Entry[] = [];
  let timestamp = 1_700_000_000_000 + Math.floor(next() * 1000);
  for (let i = 0; i < length; i++) {
    // Bursts (many entries in one millisecond) and long gaps, as real timelines have.
    const r = next();
    timestamp += r < 0.3 ? 0 : r < 0.9 ? Math.floor(next() * 50) : Math.floor(next() * 100_000);
    entries.push({ timestamp, tokens: Math.floor(next() * 5000) });
  }
  return entries;
}

const direct = (entries: readonly Entry[], from: number, to: number): Aggregate =>
  combine(
    entries
      .filter((e) => e.timestamp >= from && e.timestamp < to)
      .map((e) => ({ count: 1, tokens: e.tokens, min: e.tokens, max: e.tokens })),
  );

function buckets(grid: Grid, entries: readonly Entry[], since: number, until: number, n: number) {
  const plans = planBuckets({ ...grid, levels: grid.levels.length }, since, until, n).buckets;
  // As a query would return them: all cells at once, in no particular order.
  const cells = cellsIn(
    grid.levels,
    keptRanges(
      plans.flatMap((plan) => plan.cells),
      grid.levels.length,
    ),
  ).reverse();
  const raws = plans.flatMap((plan) => plan.raw).map((r) => direct(entries, r.from, r.to));
  const totals = sumBuckets(plans, cells, raws);
  return plans.map((plan, i) => ({ start: plan.start, end: plan.end, ...totals[i]! }));
}

describe('GridBuilder', () => {
  it('keeps level 0 under its cell limit, doubling the width, and ends in one cell', () => {
    const entries = timeline(seededRandom(1), 5000);
    const builder = new GridBuilder(64);
    for (const e of entries) builder.push(e.timestamp, e.tokens);
    const grid = builder.finish()!;
    const base = grid.levels.flat().filter((cell) => cell.low === 0);
    expect(base.length).toBeLessThanOrEqual(64);
    expect(Math.log2(grid.width) % 1).toBe(0);
    expect(grid.levels.at(-1)).toHaveLength(1);
    expect(grid.levels.at(-1)![0]).toMatchObject(direct(entries, -Infinity, Infinity));
    expect(combine(base)).toEqual(direct(entries, -Infinity, Infinity));
  });

  it('keeps each cell once, filed in order, saying what the entries of every aligned cell it stands for say', () => {
    const entries = timeline(seededRandom(3), 3000);
    const builder = new GridBuilder(100);
    for (const e of entries) builder.push(e.timestamp, e.tokens);
    const grid = builder.finish()!;
    const origin = entries[0]!.timestamp;
    for (const [level, cells] of grid.levels.entries()) {
      for (const [i, cell] of cells.entries()) {
        if (i > 0) expect(cell.cell).toBeGreaterThan(cells[i - 1]!.cell);
        expect(cell.low).toBeLessThanOrEqual(level);
        for (let k = cell.low; k <= level; k++) {
          const size = grid.width * 2 ** k;
          const start = origin + Math.floor(cell.first / 2 ** k) * size;
          const { count, tokens, min, max } = cell;
          expect({ count, tokens, min, max }).toEqual(direct(entries, start, start + size));
        }
      }
    }
  });

  it('is at most 2m − 1 rows for m level-0 cells however far apart the entries are', () => {
    const next = seededRandom(99);
    const first = Date.parse('0000-01-01T00:00:00.000Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    // Half a dense burst, half spread over ten thousand years: every spread entry is alone in its
    // stretch of time for thirty levels and more.
    const stamps = [
      ...Array.from({ length: 2000 }, (_, i) => Date.UTC(2026, 10, 1) + i),
      ...Array.from({ length: 2000 }, () => first + Math.floor(next() * (last - first))),
      last,
    ].sort((a, b) => a - b);
    const entries = stamps.map((timestamp, i) => ({ timestamp, tokens: i % 13 }));
    for (const limit of [MAX_BASE_CELLS, 1000, 7]) {
      const builder = new GridBuilder(limit);
      for (const e of entries) builder.push(e.timestamp, e.tokens);
      const grid = builder.finish()!;
      const base = grid.levels.flat().filter((cell) => cell.low === 0).length;
      expect(grid.levels.flat().length).toBeLessThanOrEqual(2 * base - 1);
      expect(grid.levels.at(-1)).toHaveLength(1);
      const answer = buckets(grid, entries, stamps[0]!, last + 1, 500);
      // A chart reads about a kept cell per bucket, not one per level per bucket.
      for (const [since, until] of [
        [stamps[0]!, last + 1],
        [stamps[1000]! + 1, stamps[3000]! - 1],
      ] as const) {
        const plans = planBuckets({ ...grid, levels: grid.levels.length }, since, until, 500).buckets;
        const read = cellsIn(
          grid.levels,
          keptRanges(
            plans.flatMap((plan) => plan.cells),
            grid.levels.length,
          ),
        );
        expect(read.length).toBeLessThanOrEqual(2 * plans.length + 4 * grid.levels.length);
      }
      for (const bucket of answer) {
        const { start, end, ...aggregate } = bucket;
        expect(aggregate).toEqual(direct(entries, start, end));
      }
      expect(combine(answer)).toEqual(direct(entries, -Infinity, Infinity));
    }
  });

  it('hands over the cells of finish() one at a time, level and all, as often as they are read', () => {
    const entries = timeline(seededRandom(5), 4000);
    const builder = new GridBuilder(200);
    for (const e of entries) builder.push(e.timestamp, e.tokens);
    const grid = builder.finish()!;
    const pyramid = builder.pyramid()!;
    expect({ origin: pyramid.origin, width: pyramid.width, levels: pyramid.levels }).toEqual({
      origin: grid.origin,
      width: grid.width,
      levels: grid.levels.length,
    });
    const read = () => {
      const copies = [];
      for (const cell of pyramid.cells()) copies.push({ ...cell });
      return copies;
    };
    const expected = grid.levels.flatMap((cells, level) => cells.map((cell) => ({ ...cell, level })));
    const byPlace = (a: { level: number; cell: number }, b: { level: number; cell: number }) =>
      a.level - b.level || a.cell - b.cell;
    expect(read().sort(byPlace)).toEqual(expected);
    expect(read().sort(byPlace)).toEqual(expected);
  });

  it('refuses entries out of timestamp order, and has nothing for no entries', () => {
    const builder = new GridBuilder(4);
    builder.push(100, 1);
    builder.push(200, 1);
    expect(() => builder.push(50, 1)).toThrow(/order/);
    expect(new GridBuilder().finish()).toBeUndefined();
    expect(new GridBuilder().pyramid()).toBeUndefined();
  });
});

describe('meetLevel', () => {
  it('is the bit length of a XOR b, past 32 bits too', () => {
    expect(meetLevel(0, 0)).toBe(0);
    expect(meetLevel(2, 3)).toBe(1);
    expect(meetLevel(1, 2)).toBe(2);
    expect(meetLevel(0, 2 ** 32)).toBe(33);
    expect(meetLevel(2 ** 40 + 5, 2 ** 40 + 6)).toBe(2);
    expect(meetLevel(2 ** 52, 2 ** 52 + 2 ** 33)).toBe(34);
    expect(meetLevel(0, 2 ** 53 - 1)).toBe(53);
  });
});

describe('decompose', () => {
  it('covers [from, to) exactly with at most two cells per level', () => {
    for (let from = 0; from < 40; from++) {
      for (let to = from; to < 45; to++) {
        const ranges = decompose(from, to, 8);
        const covered: number[] = [];
        for (const r of ranges)
          for (let c = r.from; c < r.to; c++) for (let k = 0; k < 2 ** r.level; k++) covered.push(c * 2 ** r.level + k);
        expect(covered.sort((a, b) => a - b)).toEqual(Array.from({ length: to - from }, (_, i) => from + i));
        for (let level = 0; level < 8; level++) {
          const cells = ranges.filter((r) => r.level === level).reduce((sum, r) => sum + r.to - r.from, 0);
          expect(cells).toBeLessThanOrEqual(2);
        }
      }
    }
  });
});

describe('planBuckets over a pyramid', () => {
  it('answers exactly what a direct count over the raw entries says, for any n and window', () => {
    const next = seededRandom(42);
    for (let round = 0; round < 60; round++) {
      const entries = timeline(next, 1 + Math.floor(next() * 3000));
      const builder = new GridBuilder(1 + Math.floor(next() * 200));
      for (const e of entries) builder.push(e.timestamp, e.tokens);
      const grid = builder.finish()!;
      const first = entries[0]!.timestamp;
      const end = entries.at(-1)!.timestamp + 1;
      const since = next() < 0.3 ? first : first + Math.floor(next() * (end - first));
      const until = next() < 0.3 ? end : since + 1 + Math.floor(next() * (end - since));
      const n = 1 + Math.floor(next() * 1000);
      const answer = buckets(grid, entries, since, until, n);
      expect(answer.length).toBeLessThanOrEqual(n);
      // Contiguous, covering the window, and each bucket equal to the direct count.
      expect(answer[0]?.start).toBe(since);
      expect(answer.at(-1)?.end).toBe(until);
      for (const [i, bucket] of answer.entries()) {
        if (i > 0) expect(bucket.start).toBe(answer[i - 1]!.end);
        const { start, end: stop, ...aggregate } = bucket;
        expect(aggregate, `round ${round}, bucket ${i}`).toEqual(direct(entries, start, stop));
      }
    }
  });

  it('reads at most two raw ranges, at the window ends', () => {
    const entries = timeline(seededRandom(7), 2000);
    const builder = new GridBuilder(50);
    for (const e of entries) builder.push(e.timestamp, e.tokens);
    const grid = builder.finish()!;
    const since = entries[100]!.timestamp + 1;
    const until = entries[1900]!.timestamp - 1;
    const { buckets: plans } = planBuckets({ ...grid, levels: grid.levels.length }, since, until, 300);
    expect(plans.flatMap((p) => p.raw).length).toBeLessThanOrEqual(2);
  });
});

describe('mergeRanges', () => {
  it('merges adjacent ranges of one level, never across levels', () => {
    expect(
      mergeRanges([
        { level: 1, from: 4, to: 5 },
        { level: 0, from: 3, to: 4 },
        { level: 1, from: 5, to: 6 },
        { level: 1, from: 8, to: 9 },
        { level: 0, from: 4, to: 6 },
      ]),
    ).toEqual([
      { level: 0, from: 3, to: 6 },
      { level: 1, from: 4, to: 6 },
      { level: 1, from: 8, to: 9 },
    ]);
  });
});
