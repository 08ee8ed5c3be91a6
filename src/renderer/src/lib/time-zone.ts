import { DAY_MS } from '../../../shared/time';

/** Where times are shown: in UTC, or in the viewer's own time zone. */
export type TimeZoneChoice = 'local' | 'utc';

/** What the viewer reads of Temporal, where the engine has it (Chromium does, Node 20 does not). */
interface TemporalZones {
  Now: { timeZoneId(): string };
  Instant: { fromEpochMilliseconds(ms: number): { toZonedDateTimeISO(zone: string): { offsetNanoseconds: number } } };
}

// Temporal answers the zone and its offsets without the engine's locale data, which the first Intl
// formatter of a page loads: 20–40 ms before the page draws anything. Intl where there is no Temporal.
const temporal = (globalThis as { Temporal?: TemporalZones }).Temporal;

let ownZone: string | undefined;

/**
 * The browser's own IANA zone ("America/New_York"); UTC where the engine cannot say. Read once per
 * page: every shown time asks.
 */
export const browserZone = (): string =>
  (ownZone ??= temporal?.Now.timeZoneId() || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');

/** The IANA zone a choice stands for. */
export const zoneOf = (choice: TimeZoneChoice): string => (choice === 'utc' ? 'UTC' : browserZone());

/** How a view names its zone, once, in a header or column title: "UTC", "America/New_York". */
export const zoneLabel = (zone: string): string => (zone === 'Etc/UTC' || zone === 'Etc/GMT' ? 'UTC' : zone);

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();
// Zone transitions fall on quarter hours, so one offset holds for a whole quarter hour: cache by it.
const QUARTER_HOUR_MS = 15 * 60_000;

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

function intlOffset(ms: number, zone: string): number {
  const part: Record<string, number> = {};
  for (const { type, value } of formatterOf(zone).formatToParts(ms)) part[type] = Number(value);
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour! % 24, part.minute!, part.second!) - ms;
}

/** Milliseconds the zone's wall clock is ahead of UTC at instant `ms` (negative west of Greenwich). */
export function offsetAt(ms: number, zone: string): number {
  if (zone === 'UTC') return 0;
  const quarter = Math.floor(ms / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  const key = `${zone} ${quarter}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  const offset = temporal
    ? temporal.Instant.fromEpochMilliseconds(quarter).toZonedDateTimeISO(zone).offsetNanoseconds / 1e6
    : intlOffset(quarter, zone);
  if (offsets.size > 10_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/**
 * The zone's wall clock at `ms`, as the instant that reads the same in UTC: its UTC fields are the
 * zone's year, month, day and time. Calendar arithmetic on it needs no zone.
 */
export const toWall = (ms: number, zone: string): number => ms + offsetAt(ms, zone);

/**
 * The instant whose wall clock in `zone` reads `wall` (see toWall). A wall time skipped by a
 * transition (a spring-forward gap) lands just after the gap; a repeated one on its first pass.
 */
export function fromWall(wall: number, zone: string): number {
  // A zone changes its offset at most once within a day either side: the answer is one of these two.
  const before = wall - offsetAt(wall - DAY_MS, zone);
  const after = wall - offsetAt(wall + DAY_MS, zone);
  const fits = [before, after].filter((candidate) => toWall(candidate, zone) === wall);
  return fits.length > 0 ? Math.min(...fits) : before;
}

/** Whether two instants fall on different calendar days in `zone`. */
export const crossesDays = (a: number, b: number, zone: string): boolean =>
  Math.floor(toWall(a, zone) / DAY_MS) !== Math.floor(toWall(b, zone) / DAY_MS);
