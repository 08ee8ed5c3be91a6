import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../../src/renderer/src/lib/format';
import { ticksForWidth, timeTicks } from '../../../../src/renderer/src/lib/time-ticks';

const at = (iso: string): number => Date.parse(iso);
const NY = 'America/New_York';
const labels = (from: string, to: string, zone: string, max: number): string[] => {
  const { ticks, format } = timeTicks(at(from), at(to), zone, max);
  return ticks.map(format);
};

describe('timeTicks', () => {
  it('puts ticks on round seconds within a minute, never on the span ends', () => {
    expect(labels('2026-11-20T08:44:07.300Z', '2026-11-20T08:44:58.900Z', 'UTC', 8)).toEqual([
      '08:44:10',
      '08:44:20',
      '08:44:30',
      '08:44:40',
      '08:44:50',
    ]);
  });

  it('chooses the interval from the span and the room: minutes, hours, days', () => {
    expect(timeTicks(at('2026-11-20T08:00:00Z'), at('2026-11-20T09:00:00Z'), 'UTC', 7).step).toBe(10 * 60_000);
    expect(timeTicks(at('2026-11-20T08:00:00Z'), at('2026-11-20T09:00:00Z'), 'UTC', 4).step).toBe(30 * 60_000);
    expect(timeTicks(at('2026-11-20T00:00:00Z'), at('2026-11-21T00:00:00Z'), 'UTC', 6).step).toBe(6 * 3_600_000);
    expect(timeTicks(at('2026-11-01T00:00:00Z'), at('2026-11-30T00:00:00Z'), 'UTC', 8).step).toBe(7 * 86_400_000);
  });

  it('steps a 7-day axis at round hours of the day (00:00, 12:00), not 08:00, 13:00, 18:00', () => {
    const { ticks, format } = timeTicks(at('2026-11-18T13:00:00Z'), at('2026-11-25T13:00:00Z'), 'UTC', 8);
    expect(ticks.map(format)).toEqual([
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
    ]);
    const finer = timeTicks(at('2026-11-18T13:00:00Z'), at('2026-11-25T13:00:00Z'), 'UTC', 16);
    expect(finer.ticks.map(finer.format).slice(0, 3)).toEqual([
      '2026-11-19 00:00',
      '2026-11-19 12:00',
      '2026-11-20 00:00',
    ]);
  });

  it("aligns to the chosen zone's clock: midnight in New York is 05:00 UTC", () => {
    const { ticks, format } = timeTicks(at('2026-11-18T13:00:00Z'), at('2026-11-21T13:00:00Z'), NY, 4);
    expect(ticks.map(format)).toEqual(['2026-11-19', '2026-11-20', '2026-11-21']);
    expect(ticks.map((ms) => formatDateTime(ms, 'UTC'))).toEqual([
      '2026-11-19 05:00:00',
      '2026-11-20 05:00:00',
      '2026-11-21 05:00:00',
    ]);
  });

  it('dates the labels once the span crosses a day in the zone, and not before', () => {
    expect(labels('2026-11-20T21:30:00Z', '2026-11-21T02:30:00Z', 'UTC', 6)).toEqual([
      '2026-11-20 22:00',
      '2026-11-20 23:00',
      '2026-11-21 00:00',
      '2026-11-21 01:00',
      '2026-11-21 02:00',
    ]);
    // The same span is one evening in New York.
    expect(labels('2026-11-20T21:30:00Z', '2026-11-21T02:30:00Z', NY, 6)).toEqual([
      '17:00',
      '18:00',
      '19:00',
      '20:00',
      '21:00',
    ]);
  });

  it('keeps hour ticks on the hour across a change of offset', () => {
    // New York falls back from UTC−4 to UTC−5 at 06:00 UTC on 2026-11-01.
    const { ticks, format } = timeTicks(at('2026-11-01T03:00:00Z'), at('2026-11-01T09:00:00Z'), NY, 8);
    expect(ticks.map(format).every((label) => label.endsWith(':00'))).toBe(true);
    expect(ticks.length).toBeGreaterThanOrEqual(5);
  });

  it('starts weeks on Mondays and goes to months for long spans', () => {
    const weeks = timeTicks(at('2026-09-01T00:00:00Z'), at('2026-11-30T00:00:00Z'), 'UTC', 14);
    expect(weeks.ticks.every((ms) => new Date(ms).getUTCDay() === 1)).toBe(true);
    expect(labels('2025-01-15T00:00:00Z', '2026-11-30T00:00:00Z', 'UTC', 10)).toEqual([
      '2025-04-01',
      '2025-07-01',
      '2025-10-01',
      '2026-01-01',
      '2026-04-01',
      '2026-07-01',
      '2026-10-01',
    ]);
  });

  it('fits the count to the width it has', () => {
    const from = at('2026-11-20T08:00:00Z');
    const to = at('2026-11-20T20:00:00Z');
    expect(ticksForWidth(from, to, 'UTC', 300).ticks.length).toBeLessThan(
      ticksForWidth(from, to, 'UTC', 1200).ticks.length,
    );
    expect(ticksForWidth(from, to, 'UTC', 300).ticks.length).toBeLessThanOrEqual(4);
  });

  it('counts a label by what it shows: bare dates take less room than dated times', () => {
    const week = ticksForWidth(at('2026-11-18T00:00:00Z'), at('2026-11-25T00:00:00Z'), 'UTC', 700);
    expect(week.step).toBe(86_400_000);
    expect(week.ticks.map(week.format)[0]).toBe('2026-11-18');
  });
});
