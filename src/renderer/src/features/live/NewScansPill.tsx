import { countNewMatching, type ListFilters } from './scan-matching';
import { useLive } from './live-context';
import { formatCount } from '../../lib/format';

/**
 * "N new scans" over the list: scans stored since the list on screen was fetched that it would
 * show. Clicking shows them (the caller refetches, from the first page).
 */
export function NewScansPill({
  fetchedAt,
  filters,
  shown,
  onShow,
}: {
  fetchedAt: number;
  filters: ListFilters;
  /** Ids of the scans on screen. */
  shown: ReadonlySet<string>;
  onShow: () => void;
}) {
  const { heard } = useLive();
  const count = countNewMatching(heard, fetchedAt, filters, shown);
  return (
    <div className="new-scans" aria-live="polite">
      {count > 0 && (
        <button type="button" className="new-scans-pill" onClick={onShow}>
          {count === 1 ? '1 new scan' : `${formatCount(count)} new scans`} — show
        </button>
      )}
    </div>
  );
}
