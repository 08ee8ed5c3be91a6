import type { StatBucket } from '../../../../shared/api/stats';
import type { RangePreset, SelectedRange } from './overview-search';
import { DAY_MS, HOUR_MS } from '../../../../shared/time';
import { formatDate, formatDateMinute } from '../../lib/format';
import { zoneLabel } from '../../lib/time-zone';

export const PRESET_MS: Record<RangePreset, number> = {
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
  '90d': 90 * DAY_MS,
};

export const PRESET_LABEL: Record<RangePreset, string> = {
  '24h': '24 h',
  '7d': '7 d',
  '30d': '30 d',
  '90d': '90 d',
};

export interface TimeRange {
  /** Epoch ms, inclusive. */
  since: number;
  /** Epoch ms, exclusive. */
  until: number;
  bucket: StatBucket;
}

export const bucketWidth = (bucket: StatBucket): number => (bucket === 'hour' ? HOUR_MS : DAY_MS);

/**
 * The span the charts query. Presets end at `now` rounded up to the next hour, so that the query
 * key (and the browser cache) stays the same for a while and the last bucket is whole; hour
 * buckets up to 7 days, day buckets beyond. A custom range covers its `until` day too.
 */
export function toTimeRange(search: SelectedRange, now: number): TimeRange {
  if (search.range === 'custom') {
    const since = Date.parse(`${search.since}T00:00:00.000Z`);
    const until = Date.parse(`${search.until}T00:00:00.000Z`) + DAY_MS;
    return { since, until, bucket: until - since <= 7 * DAY_MS ? 'hour' : 'day' };
  }
  const until = Math.ceil(now / HOUR_MS) * HOUR_MS;
  const span = PRESET_MS[search.range];
  const bucket: StatBucket = span <= 7 * DAY_MS ? 'hour' : 'day';
  // Day buckets start at UTC midnight: start the range on one so the first bucket is whole.
  const since = bucket === 'day' ? Math.floor((until - span) / DAY_MS) * DAY_MS : until - span;
  return { since, until, bucket };
}

export function describeRange(search: SelectedRange): string {
  if (search.range === 'custom') {
    return search.since === search.until ? `on ${search.since}` : `from ${search.since} to ${search.until}`;
  }
  return `in the last ${PRESET_LABEL[search.range].replace(' h', ' hours').replace(' d', ' days')}`;
}

/** `YYYY-MM-DD` (UTC) of an instant: what a date input shows for a range's ends. */
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The zone a range's buckets are read in: hours in the chosen one, days in UTC, since the server
 * counts days from UTC midnight and a day bucket shown in another zone would straddle two dates.
 */
export const bucketZone = (bucket: StatBucket, zone: string): string => (bucket === 'hour' ? zone : 'UTC');

/** Axis and table label of a bucket start: "2026-11-20 14:00" for hours, "2026-11-20" for days. */
export function formatBucketStart(start: number, bucket: StatBucket, zone = 'UTC'): string {
  return bucket === 'hour' ? formatDateMinute(start, zone) : formatDate(start, 'UTC');
}

/** What a bucket's label is in, for table headers: "America/New_York", "UTC days". */
export const periodZone = (bucket: StatBucket, zone: string): string =>
  bucket === 'hour' ? zoneLabel(zone) : 'UTC days';

/**
 * The span a range covers, with its zone, for the page header: "2026-11-18 13:00 to 2026-11-25
 * 13:00 America/New_York" by hour, "2026-10-27 to 2026-11-25, UTC days" by day (both days whole).
 */
export function describeSpan(range: TimeRange, zone: string): string {
  return range.bucket === 'hour'
    ? `${formatDateMinute(range.since, zone)} to ${formatDateMinute(range.until, zone)} ${zoneLabel(zone)}`
    : `${formatDate(range.since, 'UTC')} to ${formatDate(range.until - 1, 'UTC')}, UTC days`;
}

/** The start of the bucket still under way at `now`, when the range reaches it; else undefined. */
export function currentBucket(range: TimeRange, now: number): number | undefined {
  if (now < range.since || now >= range.until) return undefined;
  const width = bucketWidth(range.bucket);
  return Math.floor(now / width) * width;
}
