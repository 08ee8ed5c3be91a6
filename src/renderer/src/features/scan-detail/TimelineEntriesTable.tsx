import { useEffect, useMemo, useRef, useState } from 'react';
import { QueryState } from '../../components/QueryState';
import { ZonedTime, ZonedTitle } from '../../components/ZonedTime';
import { formatCount } from '../../lib/format';
import { useFixedRows } from '../../lib/use-fixed-rows';
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
  const filtered = action !== undefined || window !== undefined;
  // The rows in view decide the pages, and the pages decide the row count (a filtered list's total
  // comes with its first page): before the list has rows, the first page is asked for. The
  // highlighted entry's page (its row is its index when unfiltered) is asked for at once so that
  // jumping needs no scroll first.
  const [rowCount, setRowCount] = useState(filtered ? 0 : requestCount);
  // Rows of one height, placed by arithmetic: a general virtualizer would measure each of a million.
  const rows = useFixedRows(scrollRef, { count: rowCount, rowHeight: ROW_HEIGHT, overscan: 15 });
  const { first: firstRow, last: lastRow, paddingTop, paddingBottom, scrollToIndex } = rows;
  const visiblePages = useMemo(() => {
    const inView = pagesForRows(firstRow, lastRow);
    return inView.length > 0 ? inView : [0];
  }, [firstRow, lastRow]);
  const highlightedPage = !filtered && highlighted !== undefined ? pageOfRow(highlighted) : undefined;
  const wanted = withPage(visiblePages, highlightedPage);
  const { pages, error } = useTimelinePages(scanId, action, window, wanted);
  const total = listTotal(pages, filtered ? 0 : requestCount);
  if (total !== rowCount) setRowCount(total);
  const chunks = useMemo(
    () => entryChunks([...pages.values()].flatMap((page) => page.entries.map((entry) => entry.index))),
    [pages],
  );
  const violationsByEntry = useEntryViolations(scanId, chunks, hasViolations);

  const position = rowOfEntry(pages, highlighted, filtered);
  useEffect(() => {
    if (position < 0) return;
    scrollRef.current?.scrollIntoView({ block: 'nearest' });
    scrollToIndex(position);
  }, [position, scrollToIndex]);

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
            {rowIndexes(firstRow, lastRow).map((row) => {
              const entry = entryAtRow(pages, row);
              if (!entry) {
                return (
                  <tr key={`row-${row}`} className="loading" aria-busy="true" style={{ height: ROW_HEIGHT }}>
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

function withPage(pages: number[], page: number | undefined): number[] {
  return page === undefined || pages.includes(page) ? pages : [...pages, page];
}

function rowIndexes(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}
