import { describe, expect, it } from 'vitest';
import { currentBucket } from '../../../../src/renderer/src/features/overview/time-range';
import { formatClock, formatDate, formatDateMinute, formatDateTime } from '../../../../src/renderer/src/lib/format';
import { crossesDays, fromWall, offsetAt, toWall, zoneLabel } from '../../../../src/renderer/src/lib/time-zone';

const at = Date.parse('2026-11-18T23:50:23Z');
const NY = 'America/New_York';

describe('time zone arithmetic', () => {
  it("reads a zone's offset at an instant, summer and winter alike", () => {
    expect(offsetAt(at, 'UTC')).toBe(0);
    expect(offsetAt(at, NY)).toBe(-5 * 3_600_000);
    expect(offsetAt(Date.parse('2026-07-01T12:00:00Z'), NY)).toBe(-4 * 3_600_000);
    expect(offsetAt(at, 'Asia/Kathmandu')).toBe(5.75 * 3_600_000);
  });

  it('turns a wall clock reading back into its instant, through offset changes', () => {
    const wall = Date.UTC(2026, 10, 20, 12, 0, 0);
    expect(fromWall(wall, NY)).toBe(Date.parse('2026-11-20T17:00:00Z'));
    expect(toWall(fromWall(wall, NY), NY)).toBe(wall);
    // 01:30 happens twice on 2026-11-01 in New York: the first one (still UTC−4).
    expect(fromWall(Date.UTC(2026, 10, 1, 1, 30), NY)).toBe(Date.parse('2026-11-01T05:30:00Z'));
    // 05:30 comes after the change (UTC−5).
    expect(fromWall(Date.UTC(2026, 10, 1, 5, 30), NY)).toBe(Date.parse('2026-11-01T10:30:00Z'));
    // 02:30 never happens on 2026-03-08: just after the gap.
    expect(formatDateTime(fromWall(Date.UTC(2026, 2, 8, 2, 30), NY), NY)).toBe('2026-03-08 03:30:00');
  });

  it('tells days apart in the chosen zone', () => {
    const later = at + 20 * 60_000; // 00:10 UTC the next day, still the 18th in New York
    expect(crossesDays(at, later, 'UTC')).toBe(true);
    expect(crossesDays(at, later, NY)).toBe(false);
    expect(crossesDays(at, at + 60_000, 'UTC')).toBe(false);
  });

  it('names the zone as a person reads it', () => {
    expect(zoneLabel('UTC')).toBe('UTC');
    expect(zoneLabel('Etc/UTC')).toBe('UTC');
    expect(zoneLabel(NY)).toBe(NY);
  });
});

describe('time formatting', () => {
  it('writes ISO dates and 24-hour times in the zone asked for, whatever the machine runs in', () => {
    expect(formatDateTime(at, 'UTC')).toBe('2026-11-18 23:50:23');
    expect(formatDateTime('2026-11-18T23:50:23.000Z', NY)).toBe('2026-11-18 18:50:23');
    expect(formatDateMinute(at, 'Asia/Tokyo')).toBe('2026-11-19 08:50');
    expect(formatDate(at, 'Asia/Tokyo')).toBe('2026-11-19');
    expect(formatClock(at, NY)).toBe('18:50:23');
    expect(formatClock(at, NY, false)).toBe('18:50');
  });
});

describe('currentBucket', () => {
  const range = {
    since: Date.parse('2026-11-19T13:00:00Z'),
    until: Date.parse('2026-11-20T13:00:00Z'),
    bucket: 'hour' as const,
  };

  it('is the bucket under way at now, when the range reaches it', () => {
    expect(currentBucket(range, Date.parse('2026-11-20T12:30:00Z'))).toBe(Date.parse('2026-11-20T12:00:00Z'));
    expect(currentBucket(range, Date.parse('2026-11-21T12:30:00Z'))).toBeUndefined();
    expect(currentBucket(range, Date.parse('2026-11-19T12:30:00Z'))).toBeUndefined();
  });
});
