export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 §5.6 date-time: `T` or `t` (or a space, which its note allows), a fraction of any
// length, `Z`, `z` or a ±hh:mm offset.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Date.UTC, except that years 0–99 stay themselves instead of becoming 1900–1999. */
function utc(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number {
  const date = new Date(Date.UTC(2000, month, day, hours, minutes, seconds));
  date.setUTCFullYear(year, month, day);
  return date.getTime();
}

/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the range of the contract's timestamp form. */
const FIRST_MS = utc(0, 0, 1);
export const LAST_TIMESTAMP_MS = utc(9999, 11, 31, 23, 59, 59) + 999;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** Whether `year`-`month`-`day` (month 1–12) is a day of the proleptic Gregorian calendar. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** Epoch ms of an RFC 3339 full-date (`2026-11-01`, midnight UTC), or null. */
export function parseDate(text: string): number | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isCalendarDate(year, month, day) ? utc(year, month - 1, day) : null;
}

/** The contract's timestamp form, `2026-11-21T04:16:15.470Z`: the length, and its fixed characters by offset. */
const CANONICAL_LENGTH = 24;
const CANONICAL_MARKS: readonly (readonly [number, number])[] = [
  [4, 0x2d], // -
  [7, 0x2d],
  [10, 0x54], // T
  [13, 0x3a], // :
  [16, 0x3a],
  [19, 0x2e], // .
  [23, 0x5a], // Z
];

/** The ASCII digits text[from, to) as a number, or -1 if any of them is not one. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Epoch ms of a timestamp in exactly the contract's form (what formatTimestamp writes), else
 * null; null says only that it is not in that form. Every field is range-checked as
 * parseRfc3339DateTime checks it, with the same value as the result. Years before 100 are left to
 * it (Date.UTC reads those as 19xx). Nearly every timestamp a client sends is in this form, and
 * reading it by character code costs a tenth of the regular expression.
 */
export function canonicalTimestampMs(text: string): number | null {
  if (text.length !== CANONICAL_LENGTH) return null;
  for (const [at, code] of CANONICAL_MARKS) if (text.charCodeAt(at) !== code) return null;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const hours = digitsAt(text, 11, 13);
  const minutes = digitsAt(text, 14, 16);
  const seconds = digitsAt(text, 17, 19);
  const millis = digitsAt(text, 20, 23);
  if (year < 100 || !isCalendarDate(year, month, day) || hours < 0 || hours > 23) return null;
  if (minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59 || millis < 0) return null;
  return Date.UTC(year, month - 1, day, hours, minutes, seconds, millis);
}

/** Epoch ms of an RFC 3339 date-time, or null: the contract's own form quickly, any other as parseRfc3339DateTime reads it. */
export const parseDateTime = (text: string): number | null => canonicalTimestampMs(text) ?? parseRfc3339DateTime(text);

/**
 * Epoch ms of an RFC 3339 date-time, or null. Digits past the millisecond are cut off; the leap
 * second (23:59:60 in UTC, the only place RFC 3339 allows it) is read as 23:59:59.999, the last
 * instant a Date can tell from the next minute. Instants outside 0000-01-01T00:00:00.000Z …
 * 9999-12-31T23:59:59.999Z, which the contract's timestamp form cannot write, are null too.
 */
export function parseRfc3339DateTime(text: string): number | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isCalendarDate(year, month, day)) return null;
  const sign = match[8] === '-' ? -1 : 1;
  const [offsetHours, offsetMinutes] = [Number(match[9] ?? 0), Number(match[10] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 60 || offsetHours > 23 || offsetMinutes > 59) return null;
  const offsetMs = sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  const millis = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'));
  let ms: number;
  if (seconds === 60) {
    const leap = utc(year, month - 1, day, hours, minutes, 59) + 999 - offsetMs;
    // 23:59:60 UTC only: the offset must bring the local time there.
    if (new Date(leap).getUTCHours() !== 23 || new Date(leap).getUTCMinutes() !== 59) return null;
    ms = leap;
  } else {
    ms = utc(year, month - 1, day, hours, minutes, seconds) + millis - offsetMs;
  }
  return ms < FIRST_MS || ms > LAST_TIMESTAMP_MS ? null : ms;
}

/** A full-date (midnight UTC) or a date-time, as parseDate and parseDateTime read them. */
export const parseDateOrDateTime = (text: string): number | null => parseDate(text) ?? parseDateTime(text);

/**
 * The exclusive end of a range given its `until`: a full-date covers that whole UTC day, so it
 * ends at the next day's midnight UTC (`2026-11-01` → 2026-11-02T00:00:00.000Z), as a person
 * reading "until Nov 1" expects; a date-time is the end itself. Null for anything else.
 */
export function parseUntil(text: string): number | null {
  const day = parseDate(text);
  return day === null ? parseDateTime(text) : day + DAY_MS;
}

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const threeDigits = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** The last day formatTimestamp wrote, and its `YYYY-MM-DDT`: a page's timestamps share a few days. */
let formattedDay = Number.NaN;
let formattedDayHead = '';

/**
 * The contract's timestamp form: ISO 8601 UTC with milliseconds and `Z`, as `toISOString` writes
 * it. The day part is written once per day and the time of day by arithmetic: `toISOString` cost
 * about 2 µs a call, which a list page of 50 or a CSV of a million scans pays each time.
 */
export function formatTimestamp(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > LAST_TIMESTAMP_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== formattedDay) {
    formattedDay = day;
    formattedDayHead = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / HOUR_MS);
  rest -= hours * HOUR_MS;
  const minutes = Math.floor(rest / MINUTE_MS);
  rest -= minutes * MINUTE_MS;
  const seconds = Math.floor(rest / 1000);
  return `${formattedDayHead}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${threeDigits(rest - seconds * 1000)}Z`;
}

/** The current instant as every stored timestamp is written. */
export const currentTimestamp = (): string => new Date().toISOString();
