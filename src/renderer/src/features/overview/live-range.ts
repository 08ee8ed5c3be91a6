/** A stats request's query as the overview sends it. */
export interface StatsQuery {
  since: string;
  until: string;
  bucket?: string;
  group_by?: string;
  /** `local` or a remote's name; absent: every origin together. */
  origin?: string;
}

/**
 * Whether `next` is `previous` moved forward in time: the same length, bucket, grouping and origin, ending
 * later. Only then may the old numbers stand in while the new ones load.
 */
export function sameRangeMovedOn(previous: StatsQuery | undefined, next: StatsQuery): boolean {
  if (!previous) return false;
  const span = (q: StatsQuery) => Date.parse(q.until) - Date.parse(q.since);
  return (
    previous.bucket === next.bucket &&
    previous.group_by === next.group_by &&
    previous.origin === next.origin &&
    span(previous) === span(next) &&
    Date.parse(next.until) > Date.parse(previous.until)
  );
}
