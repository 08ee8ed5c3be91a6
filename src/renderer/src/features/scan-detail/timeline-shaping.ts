import type { IndexedTimelineEntry, TimelineBucket, TimelinePage } from '../../../../shared/api/evidence';

/** More raw points than this and the chart draws server-side buckets instead (docs/contract/api.md#aggregates). */
export const RAW_POINT_LIMIT = 2000;
/** Buckets asked for over the whole timeline; zooming shows the ones in the window. */
export const BUCKET_COUNT = 1000;
/** Entries per page the table fetches as it scrolls; a page is also the unit TanStack Query caches. */
export const TIMELINE_PAGE_SIZE = 1000;

export type TimelineSource = 'raw' | 'buckets';

/** One chart point: a request (raw) or a bucket of requests. */
export interface ChartPoint {
  /** Epoch ms: the request's time, or the bucket's start. */
  t: number;
  /** The bucket's end (exclusive); equal to `t` for a request. */
  end: number;
  tokens: number;
  /** Requests in the point: 1 for a request. */
  count: number;
  violations: number;
  /** The timeline entry's index, for raw points. */
  index?: number;
}

export interface TimeWindow {
  from: number;
  to: number;
}

export const needsBuckets = (requestCount: number): boolean => requestCount > RAW_POINT_LIMIT;

const inWindow = (point: ChartPoint, window: TimeWindow | undefined): boolean =>
  !window || (point.end >= window.from && point.t <= window.to);

export function rawPoints(
  entries: readonly IndexedTimelineEntry[],
  byEntry: ReadonlyMap<number, number>,
  window?: TimeWindow,
): ChartPoint[] {
  const points: ChartPoint[] = [];
  for (const entry of entries) {
    const t = Date.parse(entry.timestamp);
    const { index, tokens } = entry;
    const point = { t, end: t, tokens, count: 1, violations: byEntry.get(index) ?? 0, index };
    if (inWindow(point, window)) points.push(point);
  }
  return points;
}

export function bucketPoints(buckets: readonly TimelineBucket[], window?: TimeWindow): ChartPoint[] {
  return buckets
    .map((bucket) => ({
      t: Date.parse(bucket.start),
      end: Date.parse(bucket.end),
      tokens: bucket.tokens,
      count: bucket.count,
      violations: bucket.violations,
    }))
    .filter((point) => inWindow(point, window));
}

/** How many requests a window holds, counted from the buckets (whole buckets that overlap it). */
export function requestsInWindow(buckets: readonly TimelineBucket[], window: TimeWindow): number {
  return bucketPoints(buckets, window).reduce((sum, point) => sum + point.count, 0);
}

/**
 * Whether a zoom window of a large timeline is worth fetching as raw entries: the buckets it
 * overlaps hold at most RAW_POINT_LIMIT requests (an upper bound on the entries inside it).
 */
export function wantsRawWindow(options: {
  requestCount: number;
  buckets: readonly TimelineBucket[] | undefined;
  window: TimeWindow | undefined;
}): boolean {
  const { requestCount, buckets, window } = options;
  if (!needsBuckets(requestCount) || !window || !buckets) return false;
  return requestsInWindow(buckets, window) <= RAW_POINT_LIMIT;
}

/**
 * Raw points when the timeline is small, or when the zoom window holds few enough requests and its
 * raw entries have arrived; buckets otherwise (also meanwhile), so the chart never draws more than
 * ~2,000 marks and never blanks while zooming.
 */
export function chooseSource(options: {
  requestCount: number;
  buckets: readonly TimelineBucket[] | undefined;
  window: TimeWindow | undefined;
  rawAvailable: boolean;
}): TimelineSource {
  if (!needsBuckets(options.requestCount)) return 'raw';
  return wantsRawWindow(options) && options.rawAvailable ? 'raw' : 'buckets';
}

/** The timeline endpoint's since (inclusive) and until (exclusive) for a window whose `to` is inclusive. */
export function windowRange(window: TimeWindow): { since: string; until: string } {
  return { since: new Date(window.from).toISOString(), until: new Date(window.to + 1).toISOString() };
}

/** Whether a fetched page holds every entry that matched, i.e. nothing was cut off by its limit. */
export const isComplete = (page: TimelinePage | undefined): page is TimelinePage =>
  page !== undefined && page.entries.length >= page.total;

/** The brush's indices over the overview points for a window (the whole range without one). */
export function indicesForWindow(
  points: readonly ChartPoint[],
  window: TimeWindow | undefined,
): { startIndex: number; endIndex: number } {
  const last = Math.max(0, points.length - 1);
  if (!window || points.length === 0) return { startIndex: 0, endIndex: last };
  let startIndex = points.findIndex((point) => point.end >= window.from);
  if (startIndex < 0) startIndex = last;
  let endIndex = last;
  while (endIndex > startIndex && points[endIndex]!.t > window.to) endIndex -= 1;
  return { startIndex, endIndex };
}

/** The window the brush selects; undefined when it covers everything (no zoom). */
export function windowForIndices(
  points: readonly ChartPoint[],
  startIndex: number,
  endIndex: number,
): TimeWindow | undefined {
  if (points.length === 0) return undefined;
  const start = Math.max(0, Math.min(startIndex, endIndex));
  const end = Math.min(points.length - 1, Math.max(startIndex, endIndex));
  if (start === 0 && end === points.length - 1) return undefined;
  const from = points[start]!.t;
  const to = Math.max(points[end]!.end, from + 1);
  return { from, to };
}

/** The page that holds a row of the (possibly filtered) entries list. */
export const pageOfRow = (row: number, pageSize = TIMELINE_PAGE_SIZE): number => Math.floor(row / pageSize);

/** The pages that hold rows first..last (inclusive), in order, each once; none for an empty range. */
export function pagesForRows(first: number, last: number, pageSize = TIMELINE_PAGE_SIZE): number[] {
  if (last < first || first < 0) return [];
  const pages: number[] = [];
  for (let page = pageOfRow(first, pageSize); page <= pageOfRow(last, pageSize); page++) pages.push(page);
  return pages;
}

/** The entry at a row of the list, if its page has arrived. */
export function entryAtRow(
  pages: ReadonlyMap<number, TimelinePage>,
  row: number,
  pageSize = TIMELINE_PAGE_SIZE,
): IndexedTimelineEntry | undefined {
  return pages.get(pageOfRow(row, pageSize))?.entries[row % pageSize];
}

/** The row that shows a timeline entry: its index unfiltered; filtered, found in the pages at hand. */
export function rowOfEntry(
  pages: ReadonlyMap<number, TimelinePage>,
  entry: number | undefined,
  filtered: boolean,
  pageSize = TIMELINE_PAGE_SIZE,
): number {
  if (entry === undefined) return -1;
  if (!filtered) return entry;
  for (const [page, data] of pages) {
    const at = data.entries.findIndex((e) => e.index === entry);
    if (at >= 0) return page * pageSize + at;
  }
  return -1;
}

/** How many rows the list has: the server's count once any page is in, else the best guess. */
export function listTotal(pages: ReadonlyMap<number, TimelinePage>, fallback: number): number {
  for (const data of pages.values()) return data.total;
  return fallback;
}

/** The chart's text alternative: what is drawn, over which span, and how many violations are marked. */
export function timelineSummary(
  points: readonly ChartPoint[],
  source: TimelineSource,
  requestCount: number,
  format: (n: number) => string,
  formatTime: (ms: number) => string,
  /** The zone the times are in, said once after the span. */
  zone?: string,
): string {
  if (points.length === 0) return 'No requests in this range.';
  const requests = points.reduce((sum, point) => sum + point.count, 0);
  const peak = points.reduce((max, point) => (point.tokens > max.tokens ? point : max), points[0]!);
  const violations = points.reduce((sum, point) => sum + point.violations, 0);
  const span = `from ${formatTime(points[0]!.t)} to ${formatTime(points[points.length - 1]!.end)}${zone ? ` (${zone})` : ''}`;
  const what =
    source === 'raw'
      ? `${format(requests)} of ${format(requestCount)} requests`
      : `${format(requests)} of ${format(requestCount)} requests in ${format(points.length)} time buckets`;
  const peakText =
    source === 'raw'
      ? `the largest request used ${format(peak.tokens)} tokens`
      : `the busiest bucket used ${format(peak.tokens)} tokens`;
  const violationText = violations === 1 ? '1 violation is marked' : `${format(violations)} violations are marked`;
  return `Tokens per ${source === 'raw' ? 'request' : 'bucket'}: ${what} ${span}; ${peakText}; ${violationText}.`;
}

/** A token breakdown as chart rows, largest first. */
export function breakdownRows(breakdown: Record<string, number> | undefined): { name: string; tokens: number }[] {
  return Object.entries(breakdown ?? {})
    .map(([name, tokens]) => ({ name, tokens }))
    .sort((a, b) => b.tokens - a.tokens || a.name.localeCompare(b.name));
}
