/**
 * Which rows of a list of equal-height rows a scroll box shows, by arithmetic alone: a general
 * virtualizer keeps a measurement per row, which for a million rows is a million objects built at
 * every change of the count.
 */

export interface RowsInView {
  /** First row to render (overscan included); 0 when there are none. */
  first: number;
  /** Last row to render; `first - 1` when there are none. */
  last: number;
  /** The space above `first` and below `last`, in px. */
  paddingTop: number;
  paddingBottom: number;
}

export function rowsInView({
  count,
  rowHeight,
  scrollTop,
  viewportHeight,
  overscan,
}: {
  count: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  overscan: number;
}): RowsInView {
  if (count <= 0) return { first: 0, last: -1, paddingTop: 0, paddingBottom: 0 };
  // A scroll box not laid out yet (or scrolled past a shrunk list) still shows its first rows.
  const top = Math.min(Math.max(0, Math.floor(scrollTop / rowHeight)), count - 1);
  const shown = Math.max(1, Math.ceil(viewportHeight / rowHeight));
  const first = Math.max(0, top - overscan);
  const last = Math.min(count - 1, top + shown + overscan);
  return { first, last, paddingTop: first * rowHeight, paddingBottom: (count - 1 - last) * rowHeight };
}

/** The scroll position that puts `index`'s row in the middle of the box, within the list's ends. */
export function scrollTopCentering({
  index,
  count,
  rowHeight,
  viewportHeight,
}: {
  index: number;
  count: number;
  rowHeight: number;
  viewportHeight: number;
}): number {
  const wanted = index * rowHeight - (viewportHeight - rowHeight) / 2;
  return Math.max(0, Math.min(wanted, count * rowHeight - viewportHeight));
}
