import { Type, type Static } from 'typebox';
import { Label } from '../../../../shared/api/common';
import { parseSearch } from '../../../../shared/search-params';
import type { TimeWindow } from './timeline-shaping';

const Index = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

const ScanDetailSearchSchema = Type.Object({
  /** The entries shown: those with exactly this action (the server filters). */
  action: Type.Optional(Label),
  /** The highlighted timeline entry (its index). */
  entry: Type.Optional(Index),
  /** Zoom window, epoch milliseconds, inclusive. */
  from: Type.Optional(Index),
  to: Type.Optional(Index),
});

/** The scan detail view in the URL: the entries filter, the highlighted entry and the chart's zoom window. */
export type ScanDetailSearch = Partial<Static<typeof ScanDetailSearchSchema>>;

export function parseScanDetailSearch(input: unknown): ScanDetailSearch {
  const search: ScanDetailSearch = parseSearch(ScanDetailSearchSchema, input);
  // Half a window, or one turned inside out, is no window.
  if (search.from === undefined || search.to === undefined || search.to <= search.from) {
    search.from = search.to = undefined;
  }
  return search;
}

/** The chart's zoom window the URL names, if any. */
export const zoomWindow = ({ from, to }: ScanDetailSearch): TimeWindow | undefined =>
  from !== undefined && to !== undefined ? { from, to } : undefined;

/** The entries table's action filter as the server gets it. */
export const entriesAction = (action: string | undefined): string | undefined => action?.trim() || undefined;
