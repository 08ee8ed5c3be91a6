import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rfcDate, rfcDateTime } from '../../helpers/schema-arbitraries';
import {
  canonicalTimestampMs,
  DAY_MS,
  formatTimestamp,
  LAST_TIMESTAMP_MS,
  parseDateOrDateTime,
  parseDateTime,
  parseRfc3339DateTime,
  parseUntil,
} from '../../../src/shared/time';
import { makeRng } from '../../helpers/reliability';

describe('parseDateOrDateTime', () => {
  it('reads a date as midnight UTC', () => {
    expect(parseDateOrDateTime('2026-11-01')).toBe(Date.UTC(2026, 10, 1));
    expect(parseDateOrDateTime('2026-11-01')).toBe(1_793_491_200_000);
    expect(parseDateOrDateTime('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseDateOrDateTime('1970-01-01')).toBe(0);
  });

  it('reads years below 100 as themselves, not as 19xx', () => {
    expect(parseDateOrDateTime('0050-06-15')).toBe(Date.parse('0050-06-15T00:00:00.000Z'));
    expect(parseDateOrDateTime('0000-02-29')).toBe(Date.parse('0000-02-29T00:00:00.000Z'));
    expect(parseDateOrDateTime('0050-06-15T01:02:03Z')).toBe(Date.parse('0050-06-15T01:02:03.000Z'));
  });

  it('reads date-times in UTC, to the millisecond', () => {
    expect(parseDateOrDateTime('2026-11-01T12:34:56Z')).toBe(Date.UTC(2026, 10, 1, 12, 34, 56));
    expect(parseDateOrDateTime('2026-11-01T12:34:56.789Z')).toBe(Date.UTC(2026, 10, 1, 12, 34, 56, 789));
    expect(parseDateOrDateTime('2026-11-01T12:34:56.5Z')).toBe(Date.UTC(2026, 10, 1, 12, 34, 56, 500));
    expect(parseDateOrDateTime('2026-11-01t12:34:56z')).toBe(Date.UTC(2026, 10, 1, 12, 34, 56));
    expect(parseDateOrDateTime('2026-11-01 12:34:56Z')).toBe(Date.UTC(2026, 10, 1, 12, 34, 56));
    expect(parseDateOrDateTime('9999-12-31T23:59:59.999Z')).toBe(253_402_300_799_999);
    expect(parseDateOrDateTime('9999-12-31T23:59:59.999+00:00')).toBe(253_402_300_799_999);
    expect(parseDateOrDateTime('0000-01-01T00:00:00.000Z')).toBe(Date.parse('0000-01-01T00:00:00.000Z'));
    expect(parseDateOrDateTime('0000-01-01T01:00:00+01:00')).toBe(Date.parse('0000-01-01T00:00:00.000Z'));
  });

  it('applies offsets', () => {
    expect(parseDateOrDateTime('2026-11-01T12:00:00+05:30')).toBe(Date.UTC(2026, 10, 1, 6, 30));
    expect(parseDateOrDateTime('2026-11-01T12:00:00-08:00')).toBe(Date.UTC(2026, 10, 1, 20, 0));
    expect(parseDateOrDateTime('2026-11-01T00:30:00+01:00')).toBe(Date.UTC(2026, 9, 31, 23, 30));
    expect(parseDateOrDateTime('2026-11-01T12:00:00+00:00')).toBe(Date.UTC(2026, 10, 1, 12));
  });

  it('reads a leap second as the last millisecond before the next minute, and cuts digits past the millisecond', () => {
    expect(parseDateOrDateTime('2026-12-31T23:59:60Z')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    expect(parseDateOrDateTime('2026-12-31T23:59:60.5Z')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    expect(parseDateOrDateTime('2027-01-01T00:59:60+01:00')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    expect(parseDateOrDateTime('2026-11-01T12:00:00.1234567890Z')).toBe(Date.UTC(2026, 10, 1, 12, 0, 0, 123));
    expect(parseDateOrDateTime('2026-11-01T12:00:00.9999Z')).toBe(Date.UTC(2026, 10, 1, 12, 0, 0, 999));
  });

  it('accepts exactly the RFC 3339 full-dates and date-times that an outside validator accepts', () => {
    // ajv-formats as the outside reader. It also takes `+0530` and `+05` offsets, which RFC 3339
    // does not (the server's Ajv uses parseDateTime itself): the draw leaves those out.
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const accepted = ajv.compile({ anyOf: [{ format: 'date' }, { format: 'date-time' }] });
    const nearlyValid = fc
      .stringMatching(/^\d{4}-[01]\d-[0-3]\d([Tt ][0-2]\d:[0-6]\d:[0-6]\d(\.\d{1,4})?([Zz]|[+-][0-2]\d:[0-6]\d))?$/)
      // Where an offset would leave years 0000–9999, the contract refuses what formats accept.
      .filter((text) => !/^(0000-01-01|9999-12-31)/.test(text))
      // ajv-formats' leap-second branch checks the time in UTC only, so it takes an hour of 24 or a
      // minute of 60 that an offset brings back to 23:59 (`24:49:00+00:50`); the fixed cases
      // below show those refused.
      .filter((text) => !/[Tt ](2[4-9]|\d\d:6)/.test(text));
    fc.assert(
      fc.property(fc.oneof(rfcDate, rfcDateTime, nearlyValid), (text) => {
        expect(parseDateOrDateTime(text) !== null, text).toBe(accepted(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses impossible dates and times', () => {
    for (const text of [
      '2026-02-29',
      '2026-02-30',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-11-00',
      '2026-02-29T00:00:00Z',
      '2026-11-01T24:00:00Z',
      '2026-11-01T24:49:00+00:50',
      '2026-11-01T23:60:00Z',
      // A leap second is 23:59:60 in UTC only.
      '2026-11-01T22:59:60Z',
      '2026-11-01T23:59:60+01:00',
      '2026-11-01T12:00:00+25:00',
      '2026-11-01T12:00:00+05:60',
      // Valid text, but the instant falls outside years 0000–9999 once the offset is applied.
      '9999-12-31T23:30:00-01:00',
      '0000-01-01T00:30:00+01:00',
    ]) {
      expect(parseDateOrDateTime(text), text).toBeNull();
    }
  });

  it('refuses junk and incomplete forms', () => {
    for (const text of [
      '',
      'yesterday',
      'now',
      '1793491200000',
      '2026-1-1',
      '2026/11/01',
      '01-11-2026',
      ' 2026-11-01',
      '2026-11-01 ',
      '2026-11',
      '2026-11-01T',
      '2026-11-01T12:00Z',
      '2026-11-01T12:00:00',
      '2026-11-01T12:00:00+0530',
      '2026-11-01T12:00:00+05',
      '2026-11-01T12:00:00.Z',
      '2026-11-01T12:00:00ZZ',
      '+002026-11-01',
    ]) {
      expect(parseDateOrDateTime(text), JSON.stringify(text)).toBeNull();
    }
  });
});

describe('canonicalTimestampMs (the quick path of parseDateTime)', () => {
  it('reads the contract form, and a leap day exactly where the calendar has one', () => {
    expect(canonicalTimestampMs('2026-11-21T04:16:15.470Z')).toBe(Date.UTC(2026, 10, 21, 4, 16, 15, 470));
    expect(canonicalTimestampMs('9999-12-31T23:59:59.999Z')).toBe(253_402_300_799_999);
    expect(canonicalTimestampMs('2000-02-29T00:00:00.000Z')).toBe(Date.UTC(2000, 1, 29));
    expect(canonicalTimestampMs('2024-02-29T12:00:00.000Z')).toBe(Date.UTC(2024, 1, 29, 12));
    expect(canonicalTimestampMs('2100-02-29T00:00:00.000Z')).toBeNull();
    expect(canonicalTimestampMs('2023-02-29T00:00:00.000Z')).toBeNull();
  });

  it('leaves every other form to the full parser', () => {
    for (const text of [
      '2026-11-21T04:16:15Z',
      '2026-11-21t04:16:15.470z',
      '2026-11-21 04:16:15.470Z',
      '2026-11-21T04:16:15.470+00:00',
      '2016-12-31T23:59:60.000Z',
      '0050-06-15T01:02:03.000Z',
      '٢٠٢٦-01-01T00:00:00.000Z',
    ]) {
      expect(canonicalTimestampMs(text), text).toBeNull();
      expect(parseDateTime(text), text).toBe(parseRfc3339DateTime(text));
    }
  });

  it('never accepts what the full parser refuses, nor reads a value differently (random near-canonical timestamps)', () => {
    const next = makeRng(20261125).next;
    const pick = (text: string): string => text[Math.floor(next() * text.length)]!;
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      // Real instants, then one character changed into a digit, a separator or anything.
      let text = new Date(Math.floor((next() * 2 - 0.2) * 253_402_300_799_999)).toISOString();
      if (next() < 0.7) {
        const at = Math.floor(next() * text.length);
        text = text.slice(0, at) + pick(next() < 0.8 ? '0123456789' : '-T:.Z tz+ 9') + text.slice(at + 1);
      }
      const quick = canonicalTimestampMs(text);
      if (quick !== null) {
        accepted += 1;
        expect(parseRfc3339DateTime(text), text).toBe(quick);
      }
      expect(parseDateTime(text), text).toBe(parseRfc3339DateTime(text));
    }
    // Not vacuous: most of them take the quick path.
    expect(accepted).toBeGreaterThan(5_000);
  });
});

describe('formatTimestamp', () => {
  it('writes ISO 8601 UTC with milliseconds and Z', () => {
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(formatTimestamp(1_793_491_200_000)).toBe('2026-11-01T00:00:00.000Z');
    expect(formatTimestamp(Date.UTC(2026, 10, 21, 4, 16, 15, 470))).toBe('2026-11-21T04:16:15.470Z');
  });

  it('writes what toISOString writes, day after day and across the edges of its range', () => {
    const edges = [0, 999, DAY_MS - 1, DAY_MS, Date.UTC(2024, 1, 29, 23, 59, 59, 999), LAST_TIMESTAMP_MS];
    for (const ms of edges) expect(formatTimestamp(ms)).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: LAST_TIMESTAMP_MS + 1e13 }), (ms) => {
        expect(formatTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5_000 },
    );
    // Neighbours share a day, and one a day later must not keep the day before.
    for (let ms = Date.UTC(2026, 10, 20, 23, 59, 58); ms < Date.UTC(2026, 10, 21, 0, 0, 2); ms += 250)
      expect(formatTimestamp(ms)).toBe(new Date(ms).toISOString());
  });

  it('round-trips with parseDateOrDateTime', () => {
    for (const ms of [0, 1, 999, 1_793_534_400_123, 253_402_300_799_999]) {
      expect(parseDateOrDateTime(formatTimestamp(ms))).toBe(ms);
    }
    expect(formatTimestamp(parseDateOrDateTime('2026-11-01T12:00:00+05:30')!)).toBe('2026-11-01T06:30:00.000Z');
  });
});

describe('parseUntil', () => {
  it('reads a date as the end of that whole UTC day: the next midnight, exclusive', () => {
    expect(parseUntil('2026-11-01')).toBe(Date.UTC(2026, 10, 2));
    expect(parseUntil('2026-12-31')).toBe(Date.UTC(2027, 0, 1));
    expect(parseUntil('2024-02-28')).toBe(Date.UTC(2024, 1, 29));
    expect(parseUntil('2024-02-29')).toBe(Date.UTC(2024, 2, 1));
    expect(parseUntil('0050-06-15')).toBe(Date.parse('0050-06-16T00:00:00.000Z'));
  });

  it('reads a date-time as the instant itself', () => {
    expect(parseUntil('2026-11-01T00:00:00Z')).toBe(Date.UTC(2026, 10, 1));
    expect(parseUntil('2026-11-01T12:34:56.789Z')).toBe(Date.UTC(2026, 10, 1, 12, 34, 56, 789));
    expect(parseUntil('2026-11-01T00:00:00-05:00')).toBe(Date.UTC(2026, 10, 1, 5));
  });

  it('refuses what is neither', () => {
    for (const text of ['', '2026-02-30', '2026-11-1', '2026-11-01T25:00:00Z', 'yesterday']) {
      expect(parseUntil(text), text).toBeNull();
    }
  });

  it('agrees with parseDateOrDateTime on every date-time and is one day past it on every date', () => {
    fc.assert(
      fc.property(rfcDate, (text) => {
        const start = parseDateOrDateTime(text);
        return start !== null && parseUntil(text) === start + 86_400_000;
      }),
    );
    fc.assert(fc.property(rfcDateTime, (text) => parseUntil(text) === parseDateOrDateTime(text)));
  });
});
