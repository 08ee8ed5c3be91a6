import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { QueryState } from '../../components/QueryState';
import { ZonedTime, ZonedTitle } from '../../components/ZonedTime';
import { formatCount } from '../../lib/format';
import { entriesAction } from './detail-search';
import { entryAtRow, listTotal, pageOfRow, pagesForRows, rowOfEntry, type TimeWindow } from './timeline-shaping';
import { useTimelinePages } from './use-scan-detail';
import { useEntryViolations } from './use-scan-violations';
import { entryChunks } from './violation-paging';

const ROW_HEIGHT = 33;
const COLUMNS = 5;

/**
 * The timeline entries of any length, virtualized: only the 1,000-entry pages under the visible
 * rows are fetched (and cached). The action filter is exact and, like the chart's zoom window,
 * applied by the server.
 */
export function TimelineEntriesTable({
  scanId,
  requestCount,
  hasViolations,
  actionFilter,
  onActionFilter,
  window,
  highlighted,
}: {
  scanId: string;
  requestCount: number;
  /** Whether any violation exists to count: without one, no counts are asked for. */
  hasViolations: boolean;
  actionFilter: string | undefined;
  onActionFilter: (text: string) => void;
  /** The chart's zoom window: only its entries are listed. */
  window: TimeWindow | undefined;
  highlighted: number | undefined;
}) {
  const action = entriesAction(actionFilter);
  const scrollRef = useRef<HTMLDivElement>(null);
  // The visible rows decide the pages, and the pages decide the row count: so the pages follow the
  // rows one render late, starting with the first page; the highlighted entry's page (its row is
  // its index when unfiltered) is asked for at once so that jumping needs no scroll first.
  const [visiblePages, setVisiblePages] = useState<number[]>([0]);
  const filtered = action !== undefined || window !== undefined;
  const highlightedPage = !filtered && highlighted !== undefined ? pageOfRow(highlighted) : undefined;
  const wanted = withPage(visiblePages, highlightedPage);
  const { pages, error } = useTimelinePages(scanId, action, window, wanted);
  const total = listTotal(pages, filtered ? 0 : requestCount);
  const chunks = useMemo(
    () => entryChunks([...pages.values()].flatMap((page) => page.entries.map((entry) => entry.index))),
    [pages],
  );
  const violationsByEntry = useEntryViolations(scanId, chunks, hasViolations);
  // The app does not use the React Compiler; the warning is about its memoization only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
  });
  const items = virtualizer.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    const next = pagesForRows(firstRow, lastRow);
    // Before the list has rows (first load, a new filter) the first page tells how many there are.
    const pagesNow = next.length > 0 ? next : [0];
    setVisiblePages((previous) => (sameList(previous, pagesNow) ? previous : pagesNow));
  }, [firstRow, lastRow]);

  const position = rowOfEntry(pages, highlighted, filtered);
  useEffect(() => {
    if (position < 0) return;
    scrollRef.current?.scrollIntoView({ block: 'nearest' });
    virtualizer.scrollToIndex(position, { align: 'center' });
  }, [position, virtualizer]);

  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;

  return (
    <div className="timeline-entries">
      <div className="field timeline-entries-filter">
        <label htmlFor="timeline-action-filter">Filter entries by action</label>
        <input
          id="timeline-action-filter"
          type="search"
          value={actionFilter ?? ''}
          placeholder="exact action, e.g. shell.exec (press /)"
          data-shortcut="search"
          onChange={(event) => onActionFilter(event.target.value)}
        />
        <span className="muted" aria-live="polite">
          {formatCount(total)} of {formatCount(requestCount)} entries{window ? ', in the zoomed window' : ''}
        </span>
      </div>
      <div ref={scrollRef} className="timeline-entries-scroll" tabIndex={0} aria-label="Timeline entries">
        <table className="entries-table">
          <thead>
            <tr>
              <th scope="col" className="col-index">
                #
              </th>
              <th scope="col">
                <ZonedTitle>Time</ZonedTitle>
              </th>
              <th scope="col">Action</th>
              <th scope="col" className="col-number">
                Tokens
              </th>
              <th scope="col">Violations</th>
            </tr>
          </thead>
          <tbody>
            {paddingTop > 0 && (
              <tr aria-hidden="true">
                <td colSpan={COLUMNS} style={{ height: paddingTop, padding: 0 }} />
              </tr>
            )}
            {items.map((item) => {
              const entry = entryAtRow(pages, item.index);
              if (!entry) {
                return (
                  <tr key={`row-${item.index}`} className="loading" aria-busy="true" style={{ height: ROW_HEIGHT }}>
                    <td colSpan={COLUMNS} className="muted">
                      Loading…
                    </td>
                  </tr>
                );
              }
              const { index } = entry;
              const violations = violationsByEntry.get(index) ?? 0;
              const isHighlighted = index === highlighted;
              return (
                <tr
                  key={index}
                  data-entry={index}
                  className={isHighlighted ? 'highlighted' : undefined}
                  aria-current={isHighlighted ? 'true' : undefined}
                  style={{ height: ROW_HEIGHT }}
                >
                  <td className="col-index">{index}</td>
                  <td>
                    <ZonedTime value={entry.timestamp} />
                  </td>
                  <td>{entry.action}</td>
                  <td className="col-number">{formatCount(entry.tokens)}</td>
                  <td>{violations > 0 ? <span className="badge badge-high">{violations}</span> : ''}</td>
                </tr>
              );
            })}
            {paddingBottom > 0 && (
              <tr aria-hidden="true">
                <td colSpan={COLUMNS} style={{ height: paddingBottom, padding: 0 }} />
              </tr>
            )}
          </tbody>
        </table>
        <QueryState
          isPending={pages.size === 0}
          error={error}
          isEmpty={total === 0}
          empty={
            action !== undefined
              ? `No entry${window ? ' in the zoomed window' : ''} has the action “${action}”.`
              : window
                ? 'No entry falls in the zoomed window.'
                : 'This scan has no timeline entries.'
          }
        >
          {null}
        </QueryState>
      </div>
    </div>
  );
}

const sameList = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((value, i) => value === b[i]);

function withPage(pages: number[], page: number | undefined): number[] {
  return page === undefined || pages.includes(page) ? pages : [...pages, page];
}
