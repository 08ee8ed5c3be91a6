import { DAY_MS, HOUR_MS } from '../../../shared/time';
import { formatClock, formatDate, formatDateMinute, formatDateTime } from './format';
import { crossesDays, fromWall, toWall } from './time-zone';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

/** A tick interval: a fixed length on the zone's clock, or whole calendar months. */
type Step = { ms: number } | { months: number };

// Round intervals a person reads at a glance, shortest first.
const STEPS: readonly Step[] = [
  ...[1, 2, 5, 10, 15, 30].map((n) => ({ ms: n * SECOND_MS })),
  ...[1, 2, 5, 10, 15, 30].map((n) => ({ ms: n * MINUTE_MS })),
  ...[1, 2, 3, 6, 12].map((n) => ({ ms: n * HOUR_MS })),
  ...[1, 2, 7, 14].map((n) => ({ ms: n * DAY_MS })),
  ...[1, 3, 6, 12].map((n) => ({ months: n })),
];

/** Roughly how long a step is, to count the ticks it gives over a span. */
const lengthOf = (step: Step): number => ('ms' in step ? step.ms : step.months * 30.44 * DAY_MS);

// 1970-01-01 was a Thursday: Monday-aligned weeks start three days into the epoch's count.
const MONDAY_SHIFT = 3;

/** Wall-clock tick times (see toWall) of `step` from `from` to `to`, both wall times. */
function wallTicks(from: number, to: number, step: Step): number[] {
  const ticks: number[] = [];
  if ('months' in step) {
    const start = new Date(from);
    let month = start.getUTCFullYear() * 12 + start.getUTCMonth();
    month = Math.ceil(month / step.months) * step.months;
    for (; ; month += step.months) {
      const wall = Date.UTC(Math.floor(month / 12), month % 12, 1);
      if (wall > to) break;
      if (wall >= from) ticks.push(wall);
    }
    return ticks;
  }
  if (step.ms < DAY_MS) {
    for (let wall = Math.ceil(from / step.ms) * step.ms; wall <= to; wall += step.ms) ticks.push(wall);
    return ticks;
  }
  const days = step.ms / DAY_MS;
  // Weeks start on Mondays; other day steps count from the epoch, so they stay put while panning.
  const shift = days % 7 === 0 ? MONDAY_SHIFT : 0;
  const first = Math.ceil((Math.ceil(from / DAY_MS) + shift) / days) * days - shift;
  for (let day = first; day * DAY_MS <= to; day += days) ticks.push(day * DAY_MS);
  return ticks;
}

export interface TimeTicks {
  /** Instants (epoch ms), ascending, all within the span. */
  ticks: number[];
  /** The interval chosen, in ms (months counted as 30.44 days). */
  step: number;
  /** A tick's label: "2026-11-20" for day steps, "2026-11-20 08:44" across days, "08:44:10" within one. */
  format: (ms: number) => string;
}

/**
 * Axis ticks for the span `from`..`to` in `zone`: the shortest round interval that gives at most
 * `maxTicks` ticks, each on that interval of the zone's clock (08:00, 08:15… never where the data
 * happens to be), so that every time axis reads the same way.
 */
export function timeTicks(
  from: number,
  to: number,
  zone: string,
  maxTicks: number | ((step: number) => number),
): TimeTicks {
  const limitOf = (step: number) => Math.max(2, Math.floor(typeof maxTicks === 'number' ? maxTicks : maxTicks(step)));
  const span = Math.max(0, to - from);
  const step =
    STEPS.find((s) => Math.floor(span / lengthOf(s)) + 1 <= limitOf(lengthOf(s))) ?? STEPS[STEPS.length - 1]!;
  const wallFrom = toWall(from, zone);
  const wallTo = toWall(to, zone);
  const instants = new Set<number>();
  for (const wall of wallTicks(wallFrom, wallTo, step)) {
    const ms = fromWall(wall, zone);
    if (ms >= from && ms <= to) instants.add(ms);
  }
  const length = lengthOf(step);
  return { ticks: [...instants].sort((a, b) => a - b), step: length, format: tickFormat(from, to, zone, length) };
}

/** How ticks of `step` over a span read: dates for day steps, the date once the span crosses a day. */
export function tickFormat(from: number, to: number, zone: string, step: number): (ms: number) => string {
  if (step >= DAY_MS) return (ms) => formatDate(ms, zone);
  const seconds = step < MINUTE_MS;
  if (crossesDays(from, to, zone)) {
    return seconds ? (ms) => formatDateTime(ms, zone) : (ms) => formatDateMinute(ms, zone);
  }
  return (ms) => formatClock(ms, zone, seconds);
}

/** About how wide (px) a tick label of `step` over a span is, so that the ticks a width holds can be counted. */
export function tickLabelWidth(from: number, to: number, zone: string, step: number): number {
  // Axis labels are about 12px digits: some 6.6px each, and a gap that keeps neighbours apart.
  const CHAR_PX = 6.6;
  const GAP_PX = 20;
  const chars = tickFormat(from, to, zone, step)(from).length;
  return chars * CHAR_PX + GAP_PX;
}

/** The ticks an axis `width` px wide holds over the span without labels running into each other. */
export const ticksForWidth = (from: number, to: number, zone: string, width: number): TimeTicks =>
  timeTicks(from, to, zone, (step) => Math.floor(width / tickLabelWidth(from, to, zone, step)) + 1);
