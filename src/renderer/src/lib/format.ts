import { toWall } from './time-zone';

// Whole numbers, which is all the viewer counts, are written here as en-US writes them: the first
// Intl formatter a page builds loads the engine's locale data, 20–40 ms before anything is drawn.
// Intl stays for what such arithmetic would get wrong (fractions, -0, very large numbers).
let integer: Intl.NumberFormat | undefined;
let compact: Intl.NumberFormat | undefined;

/** Beyond this the compact form's tenths are no longer exact in a double. */
const COMPACT_EXACT_LIMIT = 1e14;
const COMPACT_UNITS = [
  { size: 1e3, suffix: 'K' },
  { size: 1e6, suffix: 'M' },
  { size: 1e9, suffix: 'B' },
  { size: 1e12, suffix: 'T' },
] as const;

const isPlainInteger = (n: number): boolean => Number.isSafeInteger(n) && !Object.is(n, -0);

/** `1,234,567`, as `Intl.NumberFormat('en-US')` writes it. */
export function formatCount(n: number): string {
  if (!isPlainInteger(n)) return (integer ??= new Intl.NumberFormat('en-US')).format(n);
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** `1.2K`, `35M`, as `Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })` writes it. */
export function formatCompact(n: number): string {
  const size = Math.abs(n);
  if (!isPlainInteger(n) || size >= COMPACT_EXACT_LIMIT) {
    return (compact ??= new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })).format(n);
  }
  const sign = n < 0 ? '-' : '';
  let unit = COMPACT_UNITS.findLastIndex((u) => u.size <= size);
  if (unit < 0) return String(n);
  // Tenths of the unit, half away from zero; 999.95K is written 1M.
  let tenths = Math.round((size * 10) / COMPACT_UNITS[unit]!.size);
  if (tenths >= 10_000 && unit < COMPACT_UNITS.length - 1) {
    unit += 1;
    tenths = Math.round((size * 10) / COMPACT_UNITS[unit]!.size);
  }
  const fraction = tenths % 10 === 0 ? '' : `.${tenths % 10}`;
  return `${sign}${Math.floor(tenths / 10)}${fraction}${COMPACT_UNITS[unit]!.suffix}`;
}

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
