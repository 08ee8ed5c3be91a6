/** The overview's URL state: `?range=7d`, or `?since=…&until=…` (UTC dates, both inclusive). */
export const RANGE_PRESETS = ['24h', '7d', '30d', '90d'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** As it lives in the URL: every key optional, so plain links to `/` need no search. */
export interface OverviewSearch {
  range?: RangePreset | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/** What the page shows, defaults applied. */
export type SelectedRange = { range: RangePreset } | { range: 'custom'; since: string; until: string };

export const DEFAULT_RANGE: RangePreset = '30d';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` that names a real calendar day; anything else is not a date. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * Route `validateSearch`: tolerates junk. `since` and `until` (both real dates) mean a custom
 * range, swapped if given backwards; else a known `range` preset; else nothing (the default).
 */
export function parseOverviewSearch(input: unknown): OverviewSearch {
  const search = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const { since, until, range } = search;
  // Every key is named, even when undefined: the router merges this over the raw search, so an
  // absent key would let junk through.
  if (isIsoDate(since) && isIsoDate(until)) {
    return since <= until ? { range: undefined, since, until } : { range: undefined, since: until, until: since };
  }
  if (typeof range === 'string' && (RANGE_PRESETS as readonly string[]).includes(range)) {
    return { range: range as RangePreset, since: undefined, until: undefined };
  }
  return { range: undefined, since: undefined, until: undefined };
}

export function selectedRange(input: OverviewSearch): SelectedRange {
  const search = parseOverviewSearch(input);
  if (search.since !== undefined && search.until !== undefined) {
    return { range: 'custom', since: search.since, until: search.until };
  }
  return { range: search.range ?? DEFAULT_RANGE };
}

/** The URL search for a selection; the default preset keeps the URL explicit so it can be shared. */
export function toSearch(selected: SelectedRange): OverviewSearch {
  return selected.range === 'custom' ? { since: selected.since, until: selected.until } : { range: selected.range };
}
