import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import type { TimelineEntry } from '../../../../shared/api/scans';
import { formatCount, formatDateTime } from '../../lib/format';
import { filterEntryIndexes } from './timeline-shaping';

const ROW_HEIGHT = 33;
const COLUMNS = 5;

/** Every timeline entry, virtualized (up to 100,000), filtered by action; the highlighted entry is scrolled to. */
export function TimelineEntriesTable({
  timeline,
  violationsByEntry,
  actionFilter,
  onActionFilter,
  highlighted,
}: {
  timeline: TimelineEntry[];
  violationsByEntry: ReadonlyMap<number, number>;
  actionFilter: string | undefined;
  onActionFilter: (text: string) => void;
  highlighted: number | undefined;
}) {
  const indexes = useMemo(() => filterEntryIndexes(timeline, actionFilter), [timeline, actionFilter]);
  const scrollRef = useRef<HTMLDivElement>(null);
  // The app does not use the React Compiler; the warning is about its memoization only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: indexes.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
  });
  const position = highlighted === undefined ? -1 : indexes.indexOf(highlighted);

  useEffect(() => {
    if (position < 0) return;
    scrollRef.current?.scrollIntoView({ block: 'nearest' });
    virtualizer.scrollToIndex(position, { align: 'center' });
  }, [position, virtualizer]);

  const items = virtualizer.getVirtualItems();
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
          placeholder="e.g. shell.exec (press /)"
          data-shortcut="search"
          onChange={(event) => onActionFilter(event.target.value)}
        />
        <span className="muted" aria-live="polite">
          {formatCount(indexes.length)} of {formatCount(timeline.length)} entries
        </span>
      </div>
      <div ref={scrollRef} className="timeline-entries-scroll" tabIndex={0} aria-label="Timeline entries">
        <table className="entries-table">
          <thead>
            <tr>
              <th scope="col" className="col-index">
                #
              </th>
              <th scope="col">Time</th>
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
              const index = indexes[item.index]!;
              const entry = timeline[index]!;
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
                    <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time>
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
        {indexes.length === 0 && <p className="state">No entry has an action containing “{actionFilter}”.</p>}
      </div>
    </div>
  );
}
