import { formatCount } from '../../lib/format';
import { PAGE_SIZES, pageLabel, type PageInfo } from './scans-search';

/** Server-side paging: previous/next by the API's offset, and the page size as its limit. */
export function Pager({
  info,
  limit,
  onOffset,
  onLimit,
}: {
  info: PageInfo;
  limit: number;
  onOffset: (offset: number) => void;
  onLimit: (limit: number) => void;
}) {
  return (
    <nav className="pager" aria-label="Pages">
      <p className="pager-label" aria-live="polite">
        {pageLabel(info, formatCount)}
      </p>
      <button
        type="button"
        disabled={info.previousOffset === undefined}
        onClick={() => info.previousOffset !== undefined && onOffset(info.previousOffset)}
      >
        ← Previous
      </button>
      <button
        type="button"
        disabled={info.nextOffset === undefined}
        onClick={() => info.nextOffset !== undefined && onOffset(info.nextOffset)}
      >
        Next →
      </button>
      <label htmlFor="scans-page-size">Per page</label>
      <select id="scans-page-size" value={limit} onChange={(event) => onLimit(Number(event.target.value))}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </nav>
  );
}
