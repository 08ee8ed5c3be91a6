import type { StatBucket } from '../../../../shared/api/stats';
import type { RangePreset, SelectedRange } from './overview-search';
import { DAY_MS, HOUR_MS } from '../../../../shared/time';
import { formatHour, zoneLabel, type TimeZoneChoice } from '../../lib/time-zone';

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
 * Axis and table label of a bucket start: hours in the chosen zone, days as the UTC days the
 * server counts them by.
 */
export function formatBucketStart(start: number, bucket: StatBucket, zone: TimeZoneChoice = 'utc'): string {
  return bucket === 'hour' ? formatHour(start, zone) : new Date(start).toISOString().slice(0, 10);
}

/** What a bucket's label is in, for table headers. */
export const periodZone = (bucket: StatBucket, zone: TimeZoneChoice): string =>
  bucket === 'hour' ? zoneLabel(zone) : 'UTC days';

/** The start of the bucket still under way at `now`, when the range reaches it; else undefined. */
export function currentBucket(range: TimeRange, now: number): number | undefined {
  if (now < range.since || now >= range.until) return undefined;
  const width = bucketWidth(range.bucket);
  return Math.floor(now / width) * width;
}
