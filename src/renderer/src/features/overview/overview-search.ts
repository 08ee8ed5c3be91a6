import { Type, type Static } from 'typebox';
import { OriginFilter } from '../../../../shared/api/origins';
import { parseSearch, SearchDate } from '../../../../shared/search-params';

/**
 * The overview's URL state: `?range=7d`, or `?since=…&until=…` (UTC dates, both inclusive); and
 * `origin` (`local` or a remote's name) when the numbers are of one origin only.
 */
export const RANGE_PRESETS = ['24h', '7d', '30d', '90d'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const OverviewSearchSchema = Type.Object({
  range: Type.Optional(Type.Enum(RANGE_PRESETS)),
  since: Type.Optional(SearchDate),
  until: Type.Optional(SearchDate),
  origin: Type.Optional(OriginFilter),
});

/** As it lives in the URL: every key optional, so plain links to `/` need no search. */
export type OverviewSearch = Partial<Static<typeof OverviewSearchSchema>>;

/** What the page shows, defaults applied. */
export type SelectedRange = { range: RangePreset } | { range: 'custom'; since: string; until: string };

export const DEFAULT_RANGE: RangePreset = '30d';

/**
 * Route `validateSearch`: tolerates junk. `since` and `until` (both real dates) mean a custom
 * range, swapped if given backwards; else a known `range` preset; else nothing (the default).
 */
export function parseOverviewSearch(input: unknown): OverviewSearch {
  const { since, until, range, origin } = parseSearch(OverviewSearchSchema, input);
  if (since !== undefined && until !== undefined) {
    return since <= until
      ? { range: undefined, since, until, origin }
      : { range: undefined, since: until, until: since, origin };
  }
  return { range, since: undefined, until: undefined, origin };
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
