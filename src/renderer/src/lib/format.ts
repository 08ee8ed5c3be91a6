import { toWall } from './time-zone';

const integer = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export const formatCount = (n: number): string => integer.format(n);
export const formatCompact = (n: number): string => compact.format(n);

// Every time the viewer shows is written here, ISO-style and 24-hour, in the zone the view names
// once in a header or column title (see useClock): components never format dates themselves.

const pad = (n: number): string => String(n).padStart(2, '0');
const instant = (value: string | number): number => (typeof value === 'number' ? value : Date.parse(value));

function wallFields(value: string | number, zone: string) {
  const wall = new Date(toWall(instant(value), zone));
  return {
    date: `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`,
    minute: `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`,
    second: pad(wall.getUTCSeconds()),
  };
}

/** `2026-11-21` in `zone`. */
export const formatDate = (value: string | number, zone: string): string => wallFields(value, zone).date;

/** `2026-11-21 04:16:15` in `zone`. */
export function formatDateTime(value: string | number, zone: string): string {
  const { date, minute, second } = wallFields(value, zone);
  return `${date} ${minute}:${second}`;
}

/** `2026-11-21 04:16` in `zone`. */
export function formatDateMinute(value: string | number, zone: string): string {
  const { date, minute } = wallFields(value, zone);
  return `${date} ${minute}`;
}

/** `04:16:15` (or `04:16` without seconds) in `zone`. */
export function formatClock(value: string | number, zone: string, seconds = true): string {
  const { minute, second } = wallFields(value, zone);
  return seconds ? `${minute}:${second}` : minute;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
