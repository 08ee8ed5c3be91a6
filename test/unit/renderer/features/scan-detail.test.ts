import { describe, expect, it } from 'vitest';
import type { IndexedTimelineEntry, TimelineBucket, TimelinePage } from '../../../../src/shared/api/evidence';
import { parseScanDetailSearch } from '../../../../src/renderer/src/features/scan-detail/detail-search';
import {
  breakdownRows,
  bucketPoints,
  chooseSource,
  entryAtRow,
  indicesForWindow,
  isComplete,
  listTotal,
  pageOfRow,
  pagesForRows,
  rawPoints,
  requestsInWindow,
  rowOfEntry,
  timelineSummary,
  wantsRawWindow,
  windowForIndices,
  windowRange,
} from '../../../../src/renderer/src/features/scan-detail/timeline-shaping';
import {
  ENTRY_CHUNK,
  entryChunks,
  mergeEntryCounts,
} from '../../../../src/renderer/src/features/scan-detail/violation-paging';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();

const timeline: IndexedTimelineEntry[] = [0, 1, 2, 3, 4].map((i) => ({
  index: i,
  timestamp: iso(T0 + i * 1000),
  action: i % 2 ? 'shell.exec' : 'code.edit',
  tokens: 10 * (i + 1),
}));

/** Per-entry counts as the server answers them, one chunk. */
const counts = (...entries: [index: number, violations: number][]): Map<number, number> =>
  mergeEntryCounts([{ entries: entries.map(([index, violations]) => ({ index, violations })) }]);

/** 10 buckets of 1,000 requests each over 10 s. */
const buckets: TimelineBucket[] = Array.from({ length: 10 }, (_, i) => ({
  start: iso(T0 + i * 1000),
  end: iso(T0 + (i + 1) * 1000),
  count: 1000,
  tokens: 5000,
  min_tokens: 1,
  max_tokens: 9,
  violations: i === 3 ? 2 : 0,
}));

describe('parseScanDetailSearch', () => {
  it('keeps a full window, an entry and a filter', () => {
    expect(parseScanDetailSearch({ action: 'shell', entry: '5', from: '100', to: 200 })).toEqual({
      action: 'shell',
      entry: 5,
      from: 100,
      to: 200,
    });
  });

  it('drops junk and half or inverted windows', () => {
    expect(parseScanDetailSearch({ entry: -1, from: 5, action: '  ' })).toEqual({});
    expect(parseScanDetailSearch({ from: 9, to: 3, entry: 'x' })).toEqual({});
    expect(parseScanDetailSearch(undefined)).toEqual({});
  });
});

describe('chart points', () => {
  it('marks raw points that carry violations and clips them to the window', () => {
    const byEntry = counts([1, 2]);
    expect(byEntry.get(1)).toBe(2);
    const points = rawPoints(timeline, byEntry);
    expect(points).toHaveLength(5);
    expect(points[1]).toMatchObject({ index: 1, violations: 2, tokens: 20, count: 1 });
    expect(rawPoints(timeline, byEntry, { from: T0 + 1000, to: T0 + 3000 }).map((p) => p.index)).toEqual([1, 2, 3]);
  });

  it('keeps the timeline index of entries fetched from the middle of a timeline', () => {
    const window = timeline.slice(2).map((entry) => ({ ...entry, index: entry.index + 5000 }));
    const points = rawPoints(window, counts([5003, 1]));
    expect(points.map((p) => [p.index, p.violations])).toEqual([
      [5002, 0],
      [5003, 1],
      [5004, 0],
    ]);
  });

  it('turns buckets into points and counts requests in a window', () => {
    expect(bucketPoints(buckets)).toHaveLength(10);
    expect(bucketPoints(buckets)[3]).toMatchObject({ t: T0 + 3000, end: T0 + 4000, count: 1000, violations: 2 });
    // 2.5 s to 3.5 s overlaps two buckets.
    expect(requestsInWindow(buckets, { from: T0 + 2500, to: T0 + 3500 })).toBe(2000);
  });
});

describe('chooseSource', () => {
  it('draws raw points for small timelines', () => {
    expect(chooseSource({ requestCount: 2000, buckets: undefined, window: undefined, rawAvailable: true })).toBe('raw');
  });

  it('draws buckets for large ones until the window holds few enough requests and they have arrived', () => {
    const large = { requestCount: 10_000, buckets, rawAvailable: true };
    expect(chooseSource({ ...large, window: undefined })).toBe('buckets');
    expect(chooseSource({ ...large, window: { from: T0, to: T0 + 5000 } })).toBe('buckets');
    expect(chooseSource({ ...large, window: { from: T0 + 2500, to: T0 + 3500 } })).toBe('raw');
    expect(chooseSource({ ...large, window: { from: T0 + 2500, to: T0 + 3500 }, rawAvailable: false })).toBe('buckets');
  });

  it('asks for a raw window only for large timelines whose window holds at most 2,000 requests', () => {
    const window = { from: T0 + 2500, to: T0 + 3500 };
    expect(wantsRawWindow({ requestCount: 10_000, buckets, window })).toBe(true);
    expect(wantsRawWindow({ requestCount: 10_000, buckets, window: { from: T0, to: T0 + 2500 } })).toBe(false);
    expect(wantsRawWindow({ requestCount: 10_000, buckets, window: undefined })).toBe(false);
    expect(wantsRawWindow({ requestCount: 10_000, buckets: undefined, window })).toBe(false);
    // Small timelines arrive whole and zoom without asking.
    expect(wantsRawWindow({ requestCount: 2000, buckets, window })).toBe(false);
  });

  it('turns an inclusive window into since (inclusive) and until (exclusive)', () => {
    expect(windowRange({ from: T0, to: T0 + 999 })).toEqual({ since: iso(T0), until: iso(T0 + 1000) });
  });

  it('knows whether a fetched page holds every match', () => {
    expect(isComplete(undefined)).toBe(false);
    expect(isComplete({ total: 2, entries: timeline.slice(0, 2) })).toBe(true);
    expect(isComplete({ total: 3, entries: timeline.slice(0, 2) })).toBe(false);
  });
});

describe('entry pages', () => {
  const page = (n: number, total: number, size: number, first = n * size): TimelinePage => ({
    total,
    entries: Array.from({ length: Math.max(0, Math.min(size, total - n * size)) }, (_, i) => ({
      index: first + i,
      timestamp: iso(T0 + first + i),
      action: 'edit',
      tokens: 1,
    })),
  });

  it('maps rows to 1,000-entry pages', () => {
    expect(pageOfRow(0)).toBe(0);
    expect(pageOfRow(999)).toBe(0);
    expect(pageOfRow(1000)).toBe(1);
    expect(pageOfRow(999_999)).toBe(999);
    expect(pagesForRows(980, 1020)).toEqual([0, 1]);
    expect(pagesForRows(1000, 1999)).toEqual([1]);
    expect(pagesForRows(0, -1)).toEqual([]);
    expect(pagesForRows(5, 20, 10)).toEqual([0, 1, 2]);
  });

  it('finds the entry at a row once its page is in', () => {
    const pages = new Map([[4, page(4, 5000, 1000)]]);
    expect(entryAtRow(pages, 4999)?.index).toBe(4999);
    expect(entryAtRow(pages, 4000)?.index).toBe(4000);
    expect(entryAtRow(pages, 3999)).toBeUndefined();
  });

  it('finds the row of an entry: its index unfiltered, searched in the pages when filtered', () => {
    expect(rowOfEntry(new Map(), 4321, false)).toBe(4321);
    expect(rowOfEntry(new Map(), undefined, false)).toBe(-1);
    // Filtered: page 1 of 10-row pages holds entries 700–709 at rows 10–19.
    const filtered = new Map([[1, page(1, 30, 10, 700)]]);
    expect(rowOfEntry(filtered, 703, true, 10)).toBe(13);
    expect(rowOfEntry(filtered, 42, true, 10)).toBe(-1);
  });

  it('counts rows from the server once a page is in', () => {
    expect(listTotal(new Map(), 5000)).toBe(5000);
    expect(listTotal(new Map([[2, page(2, 321, 100)]]), 0)).toBe(321);
  });
});

describe('brush and window', () => {
  const points = rawPoints(timeline, new Map());

  it('round-trips brush indices and windows', () => {
    const window = windowForIndices(points, 1, 3);
    expect(window).toEqual({ from: T0 + 1000, to: T0 + 3000 });
    expect(indicesForWindow(points, window)).toEqual({ startIndex: 1, endIndex: 3 });
  });

  it('treats the whole range as no zoom and tolerates odd input', () => {
    expect(windowForIndices(points, 0, 4)).toBeUndefined();
    expect(windowForIndices([], 0, 0)).toBeUndefined();
    expect(windowForIndices(points, 3, 1)).toEqual({ from: T0 + 1000, to: T0 + 3000 });
    expect(indicesForWindow(points, undefined)).toEqual({ startIndex: 0, endIndex: 4 });
    expect(indicesForWindow(points, { from: T0 + 99_000, to: T0 + 99_999 })).toEqual({ startIndex: 4, endIndex: 4 });
  });
});

describe('summary, breakdown', () => {
  it('summarizes the chart in a sentence', () => {
    const fmt = (n: number): string => n.toLocaleString('en-US');
    const time = (ms: number): string => new Date(ms).toISOString().slice(11, 19);
    expect(timelineSummary(rawPoints(timeline, counts([2, 1])), 'raw', 5, fmt, time)).toBe(
      'Tokens per request: 5 of 5 requests from 00:00:00 to 00:00:04; the largest request used 50 tokens; 1 violation is marked.',
    );
    expect(timelineSummary(bucketPoints(buckets), 'buckets', 10_000, fmt, time)).toContain(
      '10,000 of 10,000 requests in 10 time buckets',
    );
    expect(timelineSummary([], 'raw', 0, fmt, time)).toBe('No requests in this range.');
  });

  it('orders the token breakdown largest first', () => {
    expect(breakdownRows({ input: 5, cached: 9, output: 5 })).toEqual([
      { name: 'cached', tokens: 9 },
      { name: 'input', tokens: 5 },
      { name: 'output', tokens: 5 },
    ]);
    expect(breakdownRows(undefined)).toEqual([]);
  });
});

describe('per-entry violation counts', () => {
  it('asks for each chunk of indexes once, in order', () => {
    expect(entryChunks([])).toEqual([]);
    expect(entryChunks([ENTRY_CHUNK * 3, 0, ENTRY_CHUNK - 1, ENTRY_CHUNK, 7, ENTRY_CHUNK * 3 + 1])).toEqual([0, 1, 3]);
  });

  it('merges the chunks that have arrived, skipping those still on their way', () => {
    const merged = mergeEntryCounts([
      { entries: [{ index: 4, violations: 2 }] },
      undefined,
      { entries: [{ index: ENTRY_CHUNK + 1, violations: 1 }] },
    ]);
    expect([...merged]).toEqual([
      [4, 2],
      [ENTRY_CHUNK + 1, 1],
    ]);
  });
});
