import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/QueryState';
import { pagesForRows } from './timeline-shaping';
import { useViolationPages } from './use-scan-violations';
import type { ViolationGroup } from './violation-groups';
import { VIOLATION_PAGE_SIZE } from './violation-paging';

/** A row's height before it is measured; a long message wraps to more. */
const ROW_HEIGHT = 36;
/** The list's grid gap (0.5rem), which measuring a row leaves out. */
const ROW_GAP = 8;
/** The scroll box's height when the rows need more: a few rows, so the timeline stays in sight. */
const LIST_HEIGHT = 216;

/**
 * One rule group's violations, however many, virtualized: only the pages under the visible rows
 * are fetched (and cached), and only the visible rows are in the document. One that points at a
 * timeline entry jumps to it.
 */
export function ViolationsList({
  scanId,
  group,
  selectedEntry,
  onSelectEntry,
}: {
  scanId: string;
  group: ViolationGroup;
  selectedEntry: number | undefined;
  onSelectEntry: (index: number) => void;
}) {
  const total = group.count;
  const scrollRef = useRef<HTMLDivElement>(null);
  // The visible rows decide the pages, one render late, starting with the first page.
  const [visiblePages, setVisiblePages] = useState<number[]>([0]);
  const { pages, error } = useViolationPages(scanId, group, total > 0 ? visiblePages : []);
  // The app does not use the React Compiler; the warning is about its memoization only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    gap: ROW_GAP,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    const next = pagesForRows(firstRow, lastRow, VIOLATION_PAGE_SIZE);
    const pagesNow = next.length > 0 ? next : [0];
    setVisiblePages((previous) =>
      previous.length === pagesNow.length && previous.every((page, i) => page === pagesNow[i]) ? previous : pagesNow,
    );
  }, [firstRow, lastRow]);

  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;

  return (
    <div
      ref={scrollRef}
      className="violations-scroll"
      // A box as tall as its rows, up to the limit: the virtualizer shows rows only in a box with a height.
      style={{ height: Math.min(LIST_HEIGHT, virtualizer.getTotalSize()) }}
      tabIndex={0}
      aria-label={`Violations of ${group.rule}`}
    >
      <ul className="violations-list" style={{ paddingTop, paddingBottom }}>
        {items.map((item) => {
          const violation = pages.get(Math.floor(item.index / VIOLATION_PAGE_SIZE))?.violations[
            item.index % VIOLATION_PAGE_SIZE
          ];
          if (!violation) {
            return (
              <li key={`row-${item.index}`} data-index={item.index} className="muted" aria-busy="true">
                Loading…
              </li>
            );
          }
          return (
            <li key={violation.id} data-index={item.index} ref={virtualizer.measureElement}>
              {violation.message}{' '}
              {violation.timeline_index !== null && (
                <button
                  type="button"
                  className="link-button"
                  aria-pressed={selectedEntry === violation.timeline_index}
                  onClick={() => onSelectEntry(violation.timeline_index!)}
                >
                  Show entry #{violation.timeline_index}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {error && <ErrorMessage error={error} />}
    </div>
  );
}
