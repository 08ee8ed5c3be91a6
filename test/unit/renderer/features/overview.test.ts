import { describe, expect, it } from 'vitest';
import { sameRangeMovedOn } from '../../../../src/renderer/src/features/overview/live-range';
import type { TokenStatsBucket } from '../../../../src/shared/api/stats';
import {
  bucketStarts,
  groupTotals,
  ruleData,
  scansAndViolations,
  severityData,
  stackedTokens,
  totals,
} from '../../../../src/renderer/src/features/overview/chart-data';
import {
  activitySummary,
  rankingSummary,
  tokensSummary,
} from '../../../../src/renderer/src/features/overview/chart-summaries';
import {
  parseOverviewSearch,
  selectedRange,
  toSearch,
} from '../../../../src/renderer/src/features/overview/overview-search';
import {
  bucketZone,
  describeRange,
  describeSpan,
  formatBucketStart,
  toTimeRange,
  type TimeRange,
} from '../../../../src/renderer/src/features/overview/time-range';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-11-20T12:34:56.000Z');

describe('overview search', () => {
  it('accepts presets and custom date spans, tolerating junk', () => {
    expect(parseOverviewSearch({ range: '7d' })).toEqual({ range: '7d' });
    expect(parseOverviewSearch({ range: '1y' })).toEqual({});
    expect(parseOverviewSearch(undefined)).toEqual({});
    expect(parseOverviewSearch('junk')).toEqual({});
    expect(parseOverviewSearch({ range: 7 })).toEqual({});
    expect(parseOverviewSearch({ since: '2026-11-01', until: '2026-11-07', range: '24h' })).toEqual({
      since: '2026-11-01',
      until: '2026-11-07',
    });
    expect(parseOverviewSearch({ since: '2026-11-07', until: '2026-11-01' })).toEqual({
      since: '2026-11-01',
      until: '2026-11-07',
    });
    // One end alone, or an impossible day, is no custom range.
    expect(parseOverviewSearch({ since: '2026-11-01', range: '90d' })).toEqual({ range: '90d' });
    expect(parseOverviewSearch({ since: '2026-02-30', until: '2026-03-01' })).toEqual({});
  });

  it('defaults to 30 days and round-trips selections', () => {
    expect(selectedRange({})).toEqual({ range: '30d' });
    expect(selectedRange({ since: '2026-11-01', until: '2026-11-02' })).toEqual({
      range: 'custom',
      since: '2026-11-01',
      until: '2026-11-02',
    });
    expect(toSearch({ range: '24h' })).toEqual({ range: '24h' });
    expect(toSearch({ range: 'custom', since: '2026-11-01', until: '2026-11-02' })).toEqual({
      since: '2026-11-01',
      until: '2026-11-02',
    });
  });
});

describe('time range', () => {
  it('ends presets at the next whole hour, with hour buckets up to 7 days', () => {
    const end = Date.parse('2026-11-20T13:00:00.000Z');
    expect(toTimeRange({ range: '24h' }, NOW)).toEqual({ since: end - DAY, until: end, bucket: 'hour' });
    expect(toTimeRange({ range: '7d' }, NOW)).toEqual({ since: end - 7 * DAY, until: end, bucket: 'hour' });
    // Day buckets start at midnight: so does the range.
    expect(toTimeRange({ range: '90d' }, NOW)).toEqual({
      since: Date.parse('2026-08-22T00:00:00.000Z'),
      until: end,
      bucket: 'day',
    });
  });

  it('covers a custom range’s last day', () => {
    expect(toTimeRange({ range: 'custom', since: '2026-11-01', until: '2026-11-07' }, NOW)).toEqual({
      since: Date.parse('2026-11-01T00:00:00.000Z'),
      until: Date.parse('2026-11-08T00:00:00.000Z'),
      bucket: 'hour',
    });
    expect(toTimeRange({ range: 'custom', since: '2026-11-01', until: '2026-11-08' }, NOW).bucket).toBe('day');
  });

  it('describes and labels', () => {
    expect(describeRange({ range: '24h' })).toBe('in the last 24 hours');
    expect(describeRange({ range: '90d' })).toBe('in the last 90 days');
    expect(describeRange({ range: 'custom', since: '2026-11-01', until: '2026-11-01' })).toBe('on 2026-11-01');
    expect(describeRange({ range: 'custom', since: '2026-11-01', until: '2026-11-03' })).toBe(
      'from 2026-11-01 to 2026-11-03',
    );
    expect(formatBucketStart(Date.parse('2026-11-02T05:00:00Z'), 'hour')).toBe('2026-11-02 05:00');
    expect(formatBucketStart(Date.parse('2026-11-02T05:00:00Z'), 'hour', 'America/New_York')).toBe('2026-11-02 00:00');
    // Day buckets are the server's UTC days, whatever the zone.
    expect(formatBucketStart(Date.parse('2026-11-02T00:00:00Z'), 'day', 'America/New_York')).toBe('2026-11-02');
  });

  it('says the span a range covers in the zone its axis is in', () => {
    const hours: TimeRange = {
      since: Date.parse('2026-11-18T13:00:00Z'),
      until: Date.parse('2026-11-25T13:00:00Z'),
      bucket: 'hour',
    };
    expect(describeSpan(hours, 'America/New_York')).toBe('2026-11-18 08:00 to 2026-11-25 08:00 America/New_York');
    expect(describeSpan(hours, 'UTC')).toBe('2026-11-18 13:00 to 2026-11-25 13:00 UTC');
    const days: TimeRange = { since: Date.UTC(2026, 9, 27), until: Date.UTC(2026, 10, 26), bucket: 'day' };
    expect(describeSpan(days, 'America/New_York')).toBe('2026-10-27 to 2026-11-25, UTC days');
    expect(bucketZone('day', 'America/New_York')).toBe('UTC');
    expect(bucketZone('hour', 'America/New_York')).toBe('America/New_York');
  });
});

const start = (day: number): string => new Date(Date.UTC(2026, 10, day)).toISOString();
const bucket = (day: number, groups: Record<string, number>, violations = 0): TokenStatsBucket => {
  const tokens = Object.values(groups).reduce((a, b) => a + b, 0);
  return {
    start: start(day),
    tokens,
    scans: Object.keys(groups).length,
    violations,
    groups: Object.fromEntries(Object.entries(groups).map(([name, t]) => [name, { tokens: t, scans: 1 }])),
  };
};
const range: TimeRange = { since: Date.UTC(2026, 10, 1), until: Date.UTC(2026, 10, 4), bucket: 'day' };
const buckets = [bucket(1, { a: 10, 'b.c': 5 }, 2), bucket(3, { a: 1, d: 100, e: 3 })];

describe('chart data', () => {
  it('lists every bucket start, aligned to the bucket', () => {
    expect(bucketStarts(range)).toEqual([Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 2), Date.UTC(2026, 10, 3)]);
    expect(bucketStarts({ since: 1.5 * HOUR, until: 3 * HOUR, bucket: 'hour' })).toEqual([HOUR, 2 * HOUR]);
  });

  it('totals groups largest first', () => {
    expect(groupTotals(buckets)).toEqual([
      { name: 'd', value: 100 },
      { name: 'a', value: 11 },
      { name: 'b.c', value: 5 },
      { name: 'e', value: 3 },
    ]);
    expect(totals(buckets)).toEqual({ tokens: 119, scans: 5, violations: 2 });
  });

  it('stacks tokens with safe keys, zero-filled, folding the smallest groups into "other"', () => {
    const { rows, series } = stackedTokens(buckets, range, 3);
    expect(series).toEqual([
      { key: 's0', label: 'd' },
      { key: 's1', label: 'a' },
      { key: 'other', label: 'other' },
    ]);
    expect(rows).toEqual([
      { start: Date.UTC(2026, 10, 1), s0: 0, s1: 10, other: 5 },
      { start: Date.UTC(2026, 10, 2), s0: 0, s1: 0, other: 0 },
      { start: Date.UTC(2026, 10, 3), s0: 100, s1: 1, other: 3 },
    ]);
    expect(stackedTokens(buckets, range).series.map((s) => s.label)).toEqual(['d', 'a', 'b.c', 'e']);
  });

  it('zero-fills scans and violations', () => {
    expect(scansAndViolations(buckets, range)).toEqual([
      { start: Date.UTC(2026, 10, 1), scans: 2, violations: 2 },
      { start: Date.UTC(2026, 10, 2), scans: 0, violations: 0 },
      { start: Date.UTC(2026, 10, 3), scans: 3, violations: 0 },
    ]);
  });

  it('orders severities and rules', () => {
    const stats = {
      by_severity: { low: 1, medium: 0, high: 4, critical: 2 },
      by_rule: { x: 1, 'tool.blocked': 2, y: 4 },
    };
    expect(severityData(stats).map((d) => d.name)).toEqual(['low', 'medium', 'high', 'critical']);
    expect(ruleData(stats)).toEqual([
      { name: 'y', value: 4 },
      { name: 'tool.blocked', value: 2 },
      { name: 'x', value: 1 },
    ]);
  });
});

describe('chart summaries', () => {
  it('says what the charts show, or that there is nothing', () => {
    expect(tokensSummary(119, groupTotals(buckets), 'in the last 7 days')).toBe(
      '119 tokens in the last 7 days across 4 tools; d used the most (100).',
    );
    expect(tokensSummary(0, [], 'in the last 24 hours')).toBe('No tokens in the last 24 hours.');
    expect(
      rankingSummary(
        [
          { name: 'high', value: 1234 },
          { name: 'low', value: 0 },
        ],
        'violation',
        'severity',
        'today',
      ),
    ).toBe('1,234 violations today by severity; most: high 1,234.');
    expect(rankingSummary([], 'violation', 'rule', 'today')).toBe('No violations today.');
    expect(activitySummary(1, 0, { label: '11-03 05:00 UTC', scans: 1 }, 'today')).toBe(
      '1 scan and 0 violations today. The busiest was 11-03 05:00 UTC with 1 scan.',
    );
    expect(
      rankingSummary(
        [
          { name: 'low', value: 1 },
          { name: 'high', value: 5 },
        ],
        'violation',
        'severity',
        'today',
      ),
    ).toBe('6 violations today by severity; most: high 5, low 1.');
    expect(activitySummary(0, 0, undefined, 'today')).toBe('No scans today.');
  });
});

describe('sameRangeMovedOn', () => {
  const week = {
    since: '2026-11-13T12:00:00.000Z',
    until: '2026-11-20T12:00:00.000Z',
    bucket: 'hour',
    group_by: 'tool',
  };
  const later = { ...week, since: '2026-11-13T12:00:10.000Z', until: '2026-11-20T12:00:10.000Z' };

  it('is the same range moved forward: same length, bucket and grouping, a later end', () => {
    expect(sameRangeMovedOn(week, later)).toBe(true);
    expect(sameRangeMovedOn(later, week)).toBe(false);
    expect(sameRangeMovedOn(undefined, week)).toBe(false);
    expect(sameRangeMovedOn(week, { ...later, bucket: 'day' })).toBe(false);
    expect(sameRangeMovedOn(week, { ...later, group_by: 'action' })).toBe(false);
    expect(sameRangeMovedOn(week, { ...later, since: '2026-11-01T00:00:00.000Z' })).toBe(false);
  });
});
