const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses `2026-11-01` (midnight UTC) or an RFC 3339 date-time into epoch milliseconds; null for
 * anything else, including impossible dates such as `2026-02-30`.
 */
export function parseDateOrDateTime(text: string): number | null {
  const date = DATE.exec(text);
  if (date) {
    const ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    return new Date(ms).toISOString().startsWith(text) ? ms : null;
  }
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) return null;
  const [, y, mo, d, h, mi, s] = dateTime.map(Number) as number[];
  const calendar = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
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
  return Number.isNaN(ms) ? null : ms;
}

/** The contract's timestamp form: ISO 8601 UTC with milliseconds and `Z`. */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}
