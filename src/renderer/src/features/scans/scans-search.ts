import { Type, type Static } from 'typebox';
import {
  DEFAULT_SCAN_LIST_SORT,
  SCAN_PAGE_DEFAULT,
  SCAN_PAGE_MAX,
  ScanListQuery,
  type ScanListSort,
} from '../../../../shared/api/scans';
import { definedOnly, parseSearch, SearchDate } from '../../../../shared/search-params';

export const PAGE_SIZES = [25, 50, 100, 200, SCAN_PAGE_MAX] as const;
export const DEFAULT_LIMIT = SCAN_PAGE_DEFAULT;

/** The columns the server can order by; the table's headers toggle them. */
export type SortColumn = 'created_at' | 'tokens';

/** Sort values of links made before the server sorted, when tokens sorted only the page. */
const LEGACY_SORTS: Readonly<Record<string, ScanListSort>> = { 'tokens-desc': '-tokens', 'tokens-asc': 'tokens' };

/**
 * The scans view as it lives in the URL: the list query's own fields (absent means "no filter"),
 * with `since`/`until` as whole days and `sort` the API's value (`?sort=-tokens`), so that the URL
 * and the request say the same. Paging is by offset, which a link can name; `after` is not.
 */
const ScansSearchSchema = Type.Object({
  ...Type.Omit(ScanListQuery, ['since', 'until', 'after']).properties,
  since: Type.Optional(SearchDate),
  until: Type.Optional(SearchDate),
});
export type ScansSearch = Partial<Static<typeof ScansSearchSchema>>;

/**
 * Route `validateSearch`: tolerates junk (drops it) so that a hand-edited URL never breaks the page.
 * Defaults are dropped too, so that one view has one URL.
 */
export function parseScansSearch(input: unknown): ScansSearch {
  const raw = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const legacySort = typeof raw.sort === 'string' ? LEGACY_SORTS[raw.sort] : undefined;
  const search: ScansSearch = parseSearch(ScansSearchSchema, legacySort ? { ...raw, sort: legacySort } : raw);
  if (search.sort === DEFAULT_SCAN_LIST_SORT) search.sort = undefined;
  if (search.limit === DEFAULT_LIMIT) search.limit = undefined;
  if (search.offset === 0) search.offset = undefined;
  return search;
}

/** The GET /v1/scans query of one page: never more than `limit` rows, whatever the data size. */
export function toScanListQuery(search: ScansSearch): Record<string, string | number | boolean | undefined> {
  // Only the schema's fields: the router's search also holds whatever else the URL had.
  const fields = Object.keys(ScansSearchSchema.properties) as (keyof ScansSearch)[];
  const query = definedOnly(Object.fromEntries(fields.map((field) => [field, search[field]])));
  return { ...query, limit: search.limit ?? DEFAULT_LIMIT, offset: search.offset ?? 0 };
}

/** GET /v1/exports/scans for the list as it is filtered and ordered, without its paging. */
export function exportUrl(search: ScansSearch, format: 'csv' | 'json'): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(toScanListQuery(search))) {
    if (value !== undefined && key !== 'limit' && key !== 'offset') params.set(key, String(value));
  }
  params.set('format', format);
  return `/v1/exports/scans?${params}`;
}

/** The header's state for `aria-sort`: only the column the list is ordered by has one. */
export function sortState(sort: ScanListSort | undefined, column: SortColumn): 'ascending' | 'descending' | undefined {
  const active = sort ?? DEFAULT_SCAN_LIST_SORT;
  if (active === column) return 'ascending';
  if (active === `-${column}`) return 'descending';
  return undefined;
}

/**
 * A header click: the ordered column flips direction; another column starts descending (newest,
 * most tokens), which is what one looks for first. Back to the first page: the old offset points
 * into a different order.
 */
export function toggleSort(search: ScansSearch, column: SortColumn): ScansSearch {
  const sort: ScanListSort = sortState(search.sort, column) === 'descending' ? column : `-${column}`;
  return parseScansSearch({ ...search, sort, offset: undefined });
}

/** A filter change starts again at the first page. */
export function withFilter(search: ScansSearch, patch: Partial<ScansSearch>): ScansSearch {
  return parseScansSearch({ ...search, ...patch, offset: undefined });
}

export interface PageInfo {
  from: number;
  to: number;
  total: number;
  previousOffset: number | undefined;
  nextOffset: number | undefined;
}

export function pageInfo(offset: number, limit: number, rows: number, total: number): PageInfo {
  return {
    from: rows === 0 ? 0 : offset + 1,
    to: offset + rows,
    total,
    previousOffset: offset > 0 ? Math.max(0, offset - limit) : undefined,
    nextOffset: offset + limit < total ? offset + limit : undefined,
  };
}

/** `1–50 of 1,234`. */
export function pageLabel(info: PageInfo, format: (n: number) => string): string {
  if (info.total === 0 || info.from === 0) return `0 of ${format(info.total)}`;
  return `${format(info.from)}–${format(info.to)} of ${format(info.total)}`;
}
