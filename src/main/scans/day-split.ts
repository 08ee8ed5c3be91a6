import { DAY_MS } from '../../shared/time';

/** A time range in epoch ms, since inclusive, until exclusive; either end may be open. */
export interface Span {
  since?: number | undefined;
  until?: number | undefined;
}

/**
 * A range split into the whole UTC days inside it, which the day rollups answer, and the partial
 * days at its ends, which only the scans themselves can (`days` is null when no whole day fits).
 */
export function splitByDays({ since, until }: Span): { days: Span | null; edges: Span[] } {
  const from = since === undefined ? undefined : Math.ceil(since / DAY_MS) * DAY_MS;
  const to = until === undefined ? undefined : Math.floor(until / DAY_MS) * DAY_MS;
  if (from !== undefined && to !== undefined && from >= to) return { days: null, edges: [{ since, until }] };
  const edges: Span[] = [];
  if (since !== undefined && since < from!) edges.push({ since, until: from });
  if (until !== undefined && to! < until) edges.push({ since: to, until });
  return { days: { since: from, until: to }, edges };
}
