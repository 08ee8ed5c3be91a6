export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Date.UTC, except that years 0–99 stay themselves instead of becoming 1900–1999. */
function utc(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number {
  const date = new Date(Date.UTC(2000, month, day, hours, minutes, seconds));
  date.setUTCFullYear(year, month, day);
  return date.getTime();
}

/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the range of the contract's timestamp form. */
const FIRST_MS = utc(0, 0, 1);
const LAST_MS = utc(9999, 11, 31, 23, 59, 59) + 999;

/**
 * Parses `2026-11-01` (midnight UTC) or an RFC 3339 date-time into epoch milliseconds; null for
 * anything else, including impossible dates such as `2026-02-30`.
 */
export function parseDateOrDateTime(text: string): number | null {
  const date = DATE.exec(text);
  if (date) {
    const ms = utc(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    return new Date(ms).toISOString().startsWith(text) ? ms : null;
  }
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) return null;
  const [, y, mo, d, h, mi, s] = dateTime.map(Number) as number[];
  const calendar = new Date(utc(y!, mo! - 1, d!, h!, mi!, s!));
  if (
    calendar.getUTCMonth() !== mo! - 1 ||
    calendar.getUTCDate() !== d! ||
    calendar.getUTCHours() !== h! ||
    calendar.getUTCMinutes() !== mi! ||
    calendar.getUTCSeconds() !== s!
  ) {
    return null;
  }
  const ms = Date.parse(text.replace(' ', 'T'));
  // An offset can push 9999-12-31 or 0000-01-01 out of the four-digit years that
  // formatTimestamp can write back (`+010000-…`): such instants are refused.
  return Number.isNaN(ms) || ms < FIRST_MS || ms > LAST_MS ? null : ms;
}

/** The contract's timestamp form: ISO 8601 UTC with milliseconds and `Z`. */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** The current instant as every stored timestamp is written. */
export const currentTimestamp = (): string => new Date().toISOString();
