import { NAME_MAX_LENGTH } from '../../../../shared/names';

/** The scan detail view in the URL: the entries filter, the highlighted entry and the chart's zoom window. */
export interface ScanDetailSearch {
  /** The entries shown: those with exactly this action (the server filters). */
  action?: string;
  /** The highlighted timeline entry (its index). */
  entry?: number;
  /** Zoom window, epoch milliseconds, inclusive. */
  from?: number;
  to?: number;
}

function integer(value: unknown, min: number): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= min ? n : undefined;
}

export function parseScanDetailSearch(input: unknown): ScanDetailSearch {
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const action = typeof raw.action === 'string' && raw.action.trim() ? raw.action.slice(0, NAME_MAX_LENGTH) : undefined;
  let from = integer(raw.from, 0);
  let to = integer(raw.to, 0);
  // Half a window, or one turned inside out, is no window.
  if (from === undefined || to === undefined || to <= from) from = to = undefined;
  const search: ScanDetailSearch = { action, entry: integer(raw.entry, 0), from, to };
  return Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined)) as ScanDetailSearch;
}
