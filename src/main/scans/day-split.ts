import { DAY_MS, HOUR_MS } from '../../shared/time';

/** A time range in epoch ms, since inclusive, until exclusive; either end may be open. */
export interface Span {
  since?: number | undefined;
  until?: number | undefined;
}

/**
 * A range split into the whole UTC days inside it, which the day rollups answer, and the partial
 * days at its ends, which they cannot (`days` is null when no whole day fits).
 */
export function splitByDays(span: Span): DaySplit {
  const { whole, edges } = splitByUnit(DAY_MS, span);
  return { days: whole, edges };
}

/**
 * A range (a partial day, usually) split into the whole UTC hours inside it, which scan_hours
 * answers, and at most an hour at each end, left to the scans.
 */
export function splitByHours(span: Span): HourSplit {
  const { whole, edges } = splitByUnit(HOUR_MS, span);
  return { hours: whole, edges };
}

function splitByUnit(unit: number, { since, until }: Span): { whole: Span | null; edges: Span[] } {
  const from = since === undefined ? undefined : Math.ceil(since / unit) * unit;
  const to = until === undefined ? undefined : Math.floor(until / unit) * unit;
  if (from !== undefined && to !== undefined && from >= to) return { whole: null, edges: [{ since, until }] };
  const edges: Span[] = [];
  if (since !== undefined && since < from!) edges.push({ since, until: from });
  if (until !== undefined && to! < until) edges.push({ since: to, until });
  return { whole: { since: from, until: to }, edges };
}

/** The most hours hoursOf names: a partial day's, at each end of a range. */
const MAX_NAMED_HOURS = 48;

/**
 * Each hour that a span of whole hours starts (an edge's: fewer than two days' worth), or null
 * for an open span or a longer one. Named one by one, they let an hour rollup seek each (hour,
 * tool) pair of its key, where a range reads every tool of every hour and keeps one; a chart of
 * many hours reads them all anyway, as a range.
 */
export function hoursOf({ since, until }: Span): number[] | null {
  if (since === undefined || until === undefined || until - since > MAX_NAMED_HOURS * HOUR_MS) return null;
  const hours: number[] = [];
  for (let hour = since; hour < until; hour += HOUR_MS) hours.push(hour);
  return hours;
}

export interface HourSplit {
  hours: Span | null;
  edges: Span[];
}

export interface DaySplit {
  days: Span | null;
  edges: Span[];
}

/**
 * The parts of an edge's UTC day that the edge leaves out, or null when the edge reaches into a
 * second day. When no scan lies in them, the day's rollup rows are the edge's answer.
 */
export function restOfDay(edge: Span): Span[] | null {
  if (edge.since === undefined || edge.until === undefined) return null;
  const day = Math.floor(edge.since / DAY_MS) * DAY_MS;
  const next = day + DAY_MS;
  if (edge.until > next) return null;
  return [
    { since: day, until: edge.since },
    { since: edge.until, until: next },
  ].filter((span) => span.since < span.until);
}

/**
 * `split` with each edge whose `whole[i]` is true answered by its whole day from the rollups:
 * the days widen over it (an edge always borders the days, or stands alone without any).
 */
export function absorbWholeDays(split: DaySplit, whole: readonly boolean[]): DaySplit {
  let days = split.days;
  const edges: Span[] = [];
  split.edges.forEach((edge, index) => {
    if (!whole[index] || edge.since === undefined) {
      edges.push(edge);
      return;
    }
    const day = Math.floor(edge.since / DAY_MS) * DAY_MS;
    const next = day + DAY_MS;
    days =
      days === null
        ? { since: day, until: next }
        : {
            since: days.since === undefined ? undefined : Math.min(days.since, day),
            until: days.until === undefined ? undefined : Math.max(days.until, next),
          };
  });
  return { days, edges };
}
