import { describe, expect, it } from 'vitest';
import { colorOf, SERIES_COLORS } from '../../../../src/renderer/src/components/charts/palette';
import { currentBucket } from '../../../../src/renderer/src/features/overview/time-range';
import { crossesDays, formatHour, formatInstant, formatTick } from '../../../../src/renderer/src/lib/time-zone';

const at = Date.parse('2026-11-18T23:50:23Z');

describe('time zone formatting', () => {
  it('labels ticks with the clock within a day and with the date across days', () => {
    expect(formatTick(at, 'utc', false)).toBe('23:50:23');
    expect(formatTick(at, 'utc', true)).toBe('Nov 18 23:50');
  });

  it('tells days apart in the chosen zone', () => {
    const later = at + 20 * 60_000; // 00:10 UTC the next day
    expect(crossesDays(at, later, 'utc')).toBe(true);
    expect(crossesDays(at, at + 60_000, 'utc')).toBe(false);
  });

  it('always dates a tooltip instant, and says UTC when it is', () => {
    expect(formatInstant(at, 'utc')).toBe('2026-11-18 23:50:23 UTC');
    expect(formatInstant(at, 'local')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(formatHour(Date.parse('2026-11-02T05:00:00Z'), 'utc')).toBe('11-02 05:00');
  });
});

describe('colorOf', () => {
  it('gives one name one palette colour, whatever else is drawn', () => {
    expect(colorOf('ChatGPT')).toBe(colorOf('ChatGPT'));
    expect(SERIES_COLORS).toContain(colorOf('ChatGPT'));
    const names = ['ChatGPT', 'Claude', 'Copilot', 'Cursor', 'Gemini', 'Windsurf', 'Perplexity', 'Codeium'];
    expect(new Set(names.map(colorOf)).size).toBeGreaterThan(3);
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
