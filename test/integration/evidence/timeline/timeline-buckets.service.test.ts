/**
 * Chart buckets of long timelines come from stored summary pyramids, and say exactly what a direct
 * count over the raw entries says, for any n and any zoom window: for a timeline written by a bulk
 * loader (pyramid built and stored on first use), by a submit and by an import (stored as written).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineBucket, TimelineBuckets } from '../../../../src/shared/api/evidence';
import type { Scan } from '../../../../src/shared/api/scans';
import { GRID_MIN_ENTRIES } from '../../../../src/main/evidence/timeline/timeline-grid';
import { insertEvidenceScan } from '../../../helpers/evidence-fixtures';
import { submitScan } from '../../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../../helpers/test-app';

const T0 = Date.UTC(2026, 10, 1);
/**
 * A few milliseconds apart, with a minute's gap every 97 entries. The long timeline has more
 * distinct milliseconds than a pyramid's finest level holds cells, so its cells are wider than
 * 1 ms and zoom windows cut them: those edges are read raw.
 */
const timestampAt = (seq: number): number => T0 + seq * 3 + Math.floor(seq / 97) * 60_000;
const entryAt = (seq: number) => ({ timestamp: timestampAt(seq), action: 'edit', tokens: (seq * 7919) % 4001 });

/**
 * A scan's raw entries (their times and tokens) and the times of its flagged entries, both in time
 * order: read once, then counted per bucket in memory, where a count per bucket in SQL made
 * thousands of statements per answer.
 */
interface RawEntries {
  timestamps: number[];
  tokens: number[];
  flagged: number[];
}

async function rawEntries(ctx: TestContext, scanId: string): Promise<RawEntries> {
  const { rows } = await sql<{ timestamp: number; tokens: number }>`
    SELECT e.timestamp AS timestamp, e.tokens AS tokens
    FROM timeline_entries e JOIN timelines t ON t.id = e.timeline_id
    WHERE t.scan_id = ${scanId} ORDER BY e.timestamp`.execute(ctx.db);
  const { rows: flagged } = await sql<{ timestamp: number }>`
    SELECT e.timestamp AS timestamp FROM violations v
    JOIN timelines t ON t.scan_id = v.scan_id
    JOIN timeline_entries e ON e.timeline_id = t.id AND e.seq = v.timeline_index
    WHERE v.scan_id = ${scanId} ORDER BY e.timestamp`.execute(ctx.db);
  return {
    timestamps: rows.map((row) => Number(row.timestamp)),
    tokens: rows.map((row) => Number(row.tokens)),
    flagged: flagged.map((row) => Number(row.timestamp)),
  };
}

/** The index of the first of `sorted` at or after `value`. */
function firstAtOrAfter(sorted: number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** What a direct count over the raw entries says of [start, end): empty sums and bounds are 0. */
function direct(raw: RawEntries, start: number, end: number) {
  const from = firstAtOrAfter(raw.timestamps, start);
  const to = firstAtOrAfter(raw.timestamps, end);
  let tokens = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const value of raw.tokens.slice(from, to)) {
    tokens += value;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return {
    count: to - from,
    tokens,
    min_tokens: to === from ? 0 : min,
    max_tokens: to === from ? 0 : max,
    violations: firstAtOrAfter(raw.flagged, end) - firstAtOrAfter(raw.flagged, start),
  };
}

async function buckets(ctx: TestContext, scanId: string, query: string, as?: TestUser): Promise<TimelineBucket[]> {
  const response = await ctx.request({
    method: 'GET',
    url: `/v1/scans/${scanId}/evidence/timeline/buckets?${query}`,
    as,
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as TimelineBuckets).buckets;
}

async function expectExact(ctx: TestContext, scanId: string, entries: number, as?: TestUser): Promise<void> {
  const first = timestampAt(0);
  const end = timestampAt(entries - 1) + 1;
  const raw = await rawEntries(ctx, scanId);
  const windows: [number | undefined, number | undefined][] = [
    [undefined, undefined],
    [first + 1234, end - 4321],
    [first + 50_000, first + 50_700],
    [first + 3, first + 4],
    [first + 1001, first + 1004],
  ];
  for (const n of [1, 7, 100, 1000]) {
    for (const [since, until] of windows) {
      const query = [
        `n=${n}`,
        since === undefined ? '' : `since=${new Date(since).toISOString()}`,
        until === undefined ? '' : `until=${new Date(until).toISOString()}`,
      ].filter(Boolean);
      const answer = await buckets(ctx, scanId, query.join('&'), as);
      expect(answer.length).toBeLessThanOrEqual(n);
      let counted = 0;
      for (const bucket of answer) {
        const start = Date.parse(bucket.start);
        const stop = Date.parse(bucket.end);
        const { start: _s, end: _e, ...numbers } = bucket;
        expect(numbers, `${query.join('&')} ${bucket.start}`).toEqual(direct(raw, start, stop));
        counted += bucket.count;
      }
      const all = direct(raw, since ?? first, until ?? end);
      expect(counted, query.join('&')).toBe(all.count);
    }
  }
}

const gridRows = async (ctx: TestContext, scanId: string): Promise<number> =>
  Number(
    (await sql<{ n: number }>`SELECT count(*) AS n FROM timeline_cells WHERE scan_id = ${scanId}`.execute(ctx.db))
      .rows[0]!.n,
  );

describe('timeline buckets from summary pyramids', () => {
  let ctx: TestContext;
  let other: TestUser;
  const LONG = 70_000;

  beforeAll(async () => {
    ctx = await createTestContext();
    other = await ctx.createUser('other');
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('a bulk-loaded timeline gets its pyramid on first use, and answers exactly', async () => {
    await insertEvidenceScan(ctx.db, {
      id: 'scan_BULKBUCKETS000000000000000',
      submittedBy: ctx.owner.id,
      entries: LONG,
      entryAt,
      violations: [0, 1, 500, 9999, LONG - 1].map((index, i) => ({
        id: `violation_B${i}`,
        rule: 'action.blocked',
        severity: 'high' as const,
        message: 'm',
        timeline_index: index,
      })),
    });
    expect(await gridRows(ctx, 'scan_BULKBUCKETS000000000000000')).toBe(0);
    await expectExact(ctx, 'scan_BULKBUCKETS000000000000000', LONG);
    expect(await gridRows(ctx, 'scan_BULKBUCKETS000000000000000')).toBeGreaterThan(0);
    // Cells wider than a millisecond: the odd-offset windows above cut them and read their edges raw.
    const grid = await ctx.db.selectFrom('timeline_grids').select('width').executeTakeFirstOrThrow();
    expect(Number(grid.width)).toBeGreaterThan(1);
  });

  it('a submitted long timeline stores its pyramid with it; an import of it does too', async () => {
    const entries = GRID_MIN_ENTRIES + 1000;
    const timeline = Array.from({ length: entries }, (_, seq) => {
      const entry = entryAt(seq);
      return { ...entry, timestamp: new Date(entry.timestamp).toISOString() };
    });
    const scan: Scan = await submitScan(ctx, {
      tool: 't',
      action: 'a',
      tokens: timeline.reduce((sum, e) => sum + e.tokens, 0),
      timeline,
    });
    expect(await gridRows(ctx, scan.id)).toBeGreaterThan(0);
    await expectExact(ctx, scan.id, entries);

    const download = await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence/download` });
    const imported = await ctx.request({
      method: 'POST',
      url: '/v1/evidence/imports',
      headers: { 'content-type': 'application/zip' },
      payload: download.rawPayload,
      as: other,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const storedAs = (imported.json() as { ids: Record<string, string> }).ids[scan.id]!;
    expect(await gridRows(ctx, storedAs)).toBeGreaterThan(0);
    await expectExact(ctx, storedAs, entries, other);
  });

  it('a timeline spread over millennia keeps at most about two rows per entry, and its buckets stay in the contract form', async () => {
    // Half 1 ms apart in 2026, half spread over the years 5000–9999 up to the last instant the
    // contract's form can write: each spread entry is alone in its stretch of time for thirty
    // levels and more.
    const half = 5000;
    const from = Date.parse('5000-01-01T00:00:00.000Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    const stamps = [
      ...Array.from({ length: half }, (_, i) => T0 + i),
      ...Array.from({ length: half }, (_, i) => from + Math.floor(((last - from) * i) / (half - 1))),
    ];
    const timeline = stamps.map((t, i) => ({ timestamp: new Date(t).toISOString(), action: 'a', tokens: i % 11 }));
    const scan = await submitScan(ctx, {
      tool: 't',
      action: 'a',
      tokens: timeline.reduce((sum, e) => sum + e.tokens, 0),
      timeline,
    });
    expect(await gridRows(ctx, scan.id)).toBeLessThanOrEqual(2 * stamps.length);
    const raw = await rawEntries(ctx, scan.id);
    const form = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    for (const query of [
      'n=1000',
      'n=7',
      `n=50&since=${new Date(T0 + 10).toISOString()}&until=${new Date(T0 + 4000).toISOString()}`,
    ]) {
      const answer = await buckets(ctx, scan.id, query);
      let counted = 0;
      for (const bucket of answer) {
        expect(bucket.start).toMatch(form);
        expect(bucket.end).toMatch(form);
        const start = Date.parse(bucket.start);
        // The one bucket end the form cannot write, just after its last instant, is that instant.
        const stop = bucket.end === '9999-12-31T23:59:59.999Z' ? last + 1 : Date.parse(bucket.end);
        const { start: _s, end: _e, ...numbers } = bucket;
        expect(numbers, `${query} ${bucket.start}`).toEqual(direct(raw, start, stop));
        counted += bucket.count;
      }
      if (!query.includes('since')) {
        expect(counted).toBe(stamps.length);
        expect(answer.at(-1)!.end).toBe('9999-12-31T23:59:59.999Z');
      }
    }
  });

  it('a short timeline keeps no pyramid', async () => {
    const scan = await submitScan(ctx, {
      tool: 't',
      action: 'a',
      tokens: 3,
      timeline: [{ timestamp: new Date(T0).toISOString(), action: 'x', tokens: 3 }],
    });
    await buckets(ctx, scan.id, 'n=10');
    expect(await gridRows(ctx, scan.id)).toBe(0);
  });
});
