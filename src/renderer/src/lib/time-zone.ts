/** Where times are shown: in UTC, or in the viewer's own time zone. */
export type TimeZoneChoice = 'local' | 'utc';

const pad = (n: number): string => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface Parts {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
}

function parts(ms: number, zone: TimeZoneChoice): Parts {
  const d = new Date(ms);
  return zone === 'utc'
    ? {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth(),
        day: d.getUTCDate(),
        hours: d.getUTCHours(),
        minutes: d.getUTCMinutes(),
        seconds: d.getUTCSeconds(),
      }
    : {
        year: d.getFullYear(),
        month: d.getMonth(),
        day: d.getDate(),
        hours: d.getHours(),
        minutes: d.getMinutes(),
        seconds: d.getSeconds(),
      };
}

const dayOf = (p: Parts): string => `${p.year}-${p.month}-${p.day}`;

/** Whether two instants fall on different calendar days in `zone`. */
export const crossesDays = (a: number, b: number, zone: TimeZoneChoice): boolean =>
  dayOf(parts(a, zone)) !== dayOf(parts(b, zone));

/**
 * An axis tick: the clock alone while the axis stays within one day, with the date ("Nov 18
 * 15:50") once it spans several, so that days can be told apart.
 */
export function formatTick(ms: number, zone: TimeZoneChoice, multiDay: boolean): string {
  const p = parts(ms, zone);
  const clock = `${pad(p.hours)}:${pad(p.minutes)}`;
  return multiDay ? `${MONTHS[p.month]} ${p.day} ${clock}` : `${clock}:${pad(p.seconds)}`;
}

/** A tooltip's instant, always with its date and zone: "2026-11-18 15:50:23 UTC". */
export function formatInstant(ms: number, zone: TimeZoneChoice): string {
  const p = parts(ms, zone);
  const text = `${p.year}-${pad(p.month + 1)}-${pad(p.day)} ${pad(p.hours)}:${pad(p.minutes)}:${pad(p.seconds)}`;
  return zone === 'utc' ? `${text} UTC` : text;
}

/** An hour bucket's start on the overview: "11-20 14:00". */
export function formatHour(ms: number, zone: TimeZoneChoice): string {
  const p = parts(ms, zone);
  return `${pad(p.month + 1)}-${pad(p.day)} ${pad(p.hours)}:${pad(p.minutes)}`;
}

export const zoneLabel = (zone: TimeZoneChoice): string => (zone === 'utc' ? 'UTC' : 'local time');
