import { describe, expect, it } from 'vitest';
import { absorbWholeDays, hoursOf, restOfDay, splitByDays, splitByHours } from '../../../src/main/scans/day-split';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const at = (days: number, hours = 0) => Date.UTC(2026, 10, 1) + days * DAY + hours * HOUR;

describe('restOfDay', () => {
  it('is the part of an edge’s day the edge leaves out', () => {
    expect(restOfDay({ since: at(3), until: at(3, 12) })).toEqual([{ since: at(3, 12), until: at(4) }]);
    expect(restOfDay({ since: at(1, 5), until: at(2) })).toEqual([{ since: at(1), until: at(1, 5) }]);
    expect(restOfDay({ since: at(1, 5), until: at(1, 9) })).toEqual([
      { since: at(1), until: at(1, 5) },
      { since: at(1, 9), until: at(2) },
    ]);
  });

  it('is null for an edge reaching into a second day', () => {
    expect(restOfDay({ since: at(1, 5), until: at(2, 1) })).toBeNull();
  });
});

describe('absorbWholeDays', () => {
  const split = splitByDays({ since: at(1, 5), until: at(3, 2) });

  it('widens the days over the edges read as whole days, keeping the others', () => {
    expect(absorbWholeDays(split, [false, true])).toEqual({
      days: { since: at(2), until: at(4) },
      edges: [{ since: at(1, 5), until: at(2) }],
    });
    expect(absorbWholeDays(split, [true, true])).toEqual({ days: { since: at(1), until: at(4) }, edges: [] });
    expect(absorbWholeDays(split, [false, false])).toEqual(split);
  });

  it('keeps an open end open, and makes a lone edge its day', () => {
    expect(absorbWholeDays(splitByDays({ since: at(1, 5) }), [true])).toEqual({ days: { since: at(1) }, edges: [] });
    expect(absorbWholeDays(splitByDays({ since: at(1, 5), until: at(1, 9) }), [true])).toEqual({
      days: { since: at(1), until: at(2) },
      edges: [],
    });
  });
});

describe('splitByHours', () => {
  it('leaves at most an hour at each end to the scans', () => {
    expect(splitByHours({ since: at(1, 5.25), until: at(2) })).toEqual({
      hours: { since: at(1, 6), until: at(2) },
      edges: [{ since: at(1, 5.25), until: at(1, 6) }],
    });
    expect(splitByHours({ since: at(3), until: at(3, 12.5) })).toEqual({
      hours: { since: at(3), until: at(3, 12) },
      edges: [{ since: at(3, 12), until: at(3, 12.5) }],
    });
  });

  it('crosses a midnight by whole hours', () => {
    expect(splitByHours({ since: at(1, 22.5), until: at(2, 1.5) })).toEqual({
      hours: { since: at(1, 23), until: at(2, 1) },
      edges: [
        { since: at(1, 22.5), until: at(1, 23) },
        { since: at(2, 1), until: at(2, 1.5) },
      ],
    });
  });

  it('has no whole hours inside one hour', () => {
    expect(splitByHours({ since: at(1, 5.25), until: at(1, 5.75) })).toEqual({
      hours: null,
      edges: [{ since: at(1, 5.25), until: at(1, 5.75) }],
    });
  });
});

describe('hoursOf', () => {
  it('names each hour a span of whole hours starts, across a midnight too', () => {
    expect(hoursOf({ since: at(1, 22), until: at(2, 2) })).toEqual([at(1, 22), at(1, 23), at(2), at(2, 1)]);
    expect(hoursOf({ since: at(1, 5), until: at(1, 6) })).toEqual([at(1, 5)]);
  });

  it('is null for an open span, and names no hour of an empty one', () => {
    expect(hoursOf({ since: at(1) })).toBeNull();
    expect(hoursOf({ until: at(1) })).toBeNull();
    expect(hoursOf({ since: at(1), until: at(1) })).toEqual([]);
  });

  it('names at most two days of hours: a longer span is read as a range', () => {
    expect(hoursOf({ since: at(1), until: at(3) })).toHaveLength(48);
    expect(hoursOf({ since: at(1), until: at(3, 1) })).toBeNull();
  });
});
