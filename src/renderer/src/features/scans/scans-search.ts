import { SCAN_STATUSES, type ScanStatus, type ScanSummary } from '../../../../shared/api/scans';

export const PAGE_SIZES = [25, 50, 100, 200, 500] as const;
export const DEFAULT_LIMIT = 50;
export const SCAN_SORTS = ['time', 'tokens-desc', 'tokens-asc'] as const;
export type ScanSort = (typeof SCAN_SORTS)[number];

/** The scans view as it lives in the URL; absent keys mean "no filter". */
export interface ScansSearch {
  since?: string;
  until?: string;
  tool?: string;
  status?: ScanStatus;
  organization_id?: string;
  has_violations?: boolean;
  sort?: ScanSort;
  offset?: number;
  limit?: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function text(value: unknown, max = 100): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const trimmed = String(value).trim();
  return trimmed && trimmed.length <= max ? trimmed : undefined;
}

function date(value: unknown): string | undefined {
  const candidate = text(value, 10);
  if (!candidate || !DATE.test(candidate)) return undefined;
  return Number.isNaN(Date.parse(`${candidate}T00:00:00Z`)) ? undefined : candidate;
}

function integer(value: unknown, min: number, max: number): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return values.find((candidate) => candidate === value);
}

/** Route `validateSearch`: tolerates junk (drops it) so that a hand-edited URL never breaks the page. */
export function parseScansSearch(input: unknown): ScansSearch {
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const hasViolations = raw.has_violations;
  const limit = integer(raw.limit, 1, 500);
  const search: ScansSearch = {
    since: date(raw.since),
    until: date(raw.until),
    tool: text(raw.tool),
    status: oneOf(SCAN_STATUSES, raw.status),
    organization_id: text(raw.organization_id),
    has_violations:
      hasViolations === true || hasViolations === 'true'
        ? true
        : hasViolations === false || hasViolations === 'false'
          ? false
          : undefined,
    sort: oneOf(SCAN_SORTS, raw.sort),
    offset: integer(raw.offset, 0, Number.MAX_SAFE_INTEGER) || undefined,
    limit: limit === DEFAULT_LIMIT ? undefined : limit,
  };
  if (search.sort === 'time') search.sort = undefined;
  return Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined)) as ScansSearch;
}

/** The day after a `YYYY-MM-DD` date: the form's "until" is inclusive, the API's is exclusive. */
export function nextDay(day: string): string {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);
  return next.toISOString().slice(0, 10);
}

/** The GET /v1/scans query of one page: never more than `limit` rows, whatever the data size. */
export function toScanListQuery(search: ScansSearch): Record<string, string | number | boolean | undefined> {
  return {
    limit: search.limit ?? DEFAULT_LIMIT,
    offset: search.offset ?? 0,
    since: search.since,
    until: search.until ? nextDay(search.until) : undefined,
    tool: search.tool,
    status: search.status,
    organization_id: search.organization_id,
    has_violations: search.has_violations,
  };
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

/** The API orders newest first only: token sorting reorders the rows of the current page and nothing more. */
export function sortPage(rows: readonly ScanSummary[], sort: ScanSort | undefined): ScanSummary[] {
  if (!sort || sort === 'time') return [...rows];
  const sign = sort === 'tokens-asc' ? 1 : -1;
  return [...rows].sort((a, b) => sign * (a.tokens - b.tokens) || b.created_at.localeCompare(a.created_at));
}

/** Tool names seen in a GET /v1/stats/tokens?group_by=tool answer, sorted. */
export function toolNames(buckets: readonly { groups?: Record<string, unknown> }[]): string[] {
  const names = new Set<string>();
  for (const bucket of buckets) for (const name of Object.keys(bucket.groups ?? {})) names.add(name);
  return [...names].sort((a, b) => a.localeCompare(b));
}
