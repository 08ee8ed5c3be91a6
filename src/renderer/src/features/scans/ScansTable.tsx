import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { ScanListSort, ScanSummary } from '../../../../shared/api/scans';
import { ZonedTime, ZonedTitle } from '../../components/ZonedTime';
import { formatCount } from '../../lib/format';
import { isActivatable, isTypingTarget, listKeyAction } from './list-keys';
import { sortState, type SortColumn } from './scans-search';
import { SeverityBadge } from './SeverityBadge';

const column = createColumnHelper<ScanSummary>();

const COLUMNS = [
  column.accessor('id', {
    header: 'ID',
    cell: (info) => {
      const origin = info.row.original.origin;
      return (
        <>
          <Link to="/scans/$scanId" params={{ scanId: info.getValue() }} className="mono">
            {info.getValue()}
          </Link>
          {/* Where a pulled scan came from; a removed remote's scans are local data. */}
          {origin && (
            <span
              className="origin-badge"
              title={`Pulled${origin.remote ? ` from ${origin.remote}` : ''}, ${origin.id} there`}
            >
              {origin.remote ?? 'pulled'}
            </span>
          )}
        </>
      );
    },
  }),
  column.accessor('created_at', {
    header: () => <ZonedTitle>Time</ZonedTitle>,
    cell: (info) => <ZonedTime value={info.getValue()} />,
  }),
  column.accessor('tool', { header: 'Tool' }),
  column.accessor('action', { header: 'Action' }),
  column.accessor('tokens', { header: 'Tokens', cell: (info) => formatCount(info.getValue()) }),
  column.accessor('status', { header: 'Status' }),
  column.accessor('violation_count', {
    header: 'Violations',
    cell: (info) => {
      const severity = info.row.original.worst_severity;
      const count = info.getValue();
      if (count === 0 || !severity) return <span className="muted">0</span>;
      return (
        <SeverityBadge severity={severity}>
          {count} · {severity}
        </SeverityBadge>
      );
    },
  }),
];

const ROW_HEIGHT = 37;

const SORTABLE: ReadonlySet<string> = new Set<SortColumn>(['created_at', 'tokens']);
const isSortable = (id: string): id is SortColumn => SORTABLE.has(id);
const SORT_ARROWS = { ascending: '▲', descending: '▼' } as const;

interface ScansTableProps {
  rows: ScanSummary[];
  sort: ScanListSort | undefined;
  onSort: (column: SortColumn) => void;
  onOpen: (scan: ScanSummary) => void;
  /** Ticked scans (for export), across pages. */
  checked: ReadonlySet<string>;
  onCheck: (scan: ScanSummary, shift: boolean) => void;
  onCheckPage: () => void;
  pageChecked: 'all' | 'some' | 'none';
}

/**
 * One page of scans, virtualized (a page may hold 500 rows); j/k select, Enter or a click opens.
 * The Time and Tokens headers order the whole list on the server, not just this page.
 */
export function ScansTable({
  rows,
  sort,
  onSort,
  onOpen,
  checked,
  onCheck,
  onCheckPage,
  pageChecked,
}: ScansTableProps) {
  // The app does not use the React Compiler; the warning is about its memoization only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data: rows, columns: COLUMNS, getCoreRowModel: getCoreRowModel() });
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const [selected, setSelected] = useState(-1);
  // A new page starts without a selection; j picks its first row.
  const [rowsSeen, setRowsSeen] = useState(rows);
  if (rowsSeen !== rows) {
    setRowsSeen(rows);
    setSelected(-1);
  }

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      const action = listKeyAction(event.key, selected, rows.length);
      if (!action || (action.type === 'open' && isActivatable(event.target))) return;
      event.preventDefault();
      if (action.type === 'open') onOpen(rows[action.index]!);
      else {
        setSelected(action.index);
        virtualizer.scrollToIndex(action.index, { align: 'auto' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [rows, selected, onOpen, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const tableRows = table.getRowModel().rows;
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;

  return (
    <div ref={scrollRef} className="scans-scroll" tabIndex={0} aria-label="Scans (j/k to move, Enter to open)">
      <table className="scans-table">
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              <th scope="col" className="col-check">
                <input
                  type="checkbox"
                  aria-label="Select every scan on this page"
                  checked={pageChecked === 'all'}
                  ref={(box) => {
                    if (box) box.indeterminate = pageChecked === 'some';
                  }}
                  onChange={onCheckPage}
                />
              </th>
              {group.headers.map((header) => {
                const id = header.column.id;
                const label = flexRender(header.column.columnDef.header, header.getContext());
                if (!isSortable(id)) {
                  return (
                    <th key={header.id} scope="col" className={`col-${id}`}>
                      {label}
                    </th>
                  );
                }
                const state = sortState(sort, id);
                return (
                  <th key={header.id} scope="col" className={`col-${id}`} aria-sort={state}>
                    <button type="button" className="sort-toggle" onClick={() => onSort(id)}>
                      {label}
                      <span className="sort-arrow" aria-hidden="true">
                        {state ? SORT_ARROWS[state] : '↕'}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={COLUMNS.length + 1} style={{ height: paddingTop, padding: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const row = tableRows[item.index]!;
            const isSelected = item.index === selected;
            return (
              <tr
                key={row.id}
                data-index={item.index}
                data-selected={isSelected || undefined}
                className={isSelected ? 'selected' : undefined}
                style={{ height: ROW_HEIGHT }}
                onClick={() => onOpen(row.original)}
              >
                <td className="col-check" onClick={(event) => event.stopPropagation()}>
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.original.id}`}
                    checked={checked.has(row.original.id)}
                    onChange={() => undefined}
                    onClick={(event) => onCheck(row.original, event.shiftKey)}
                  />
                </td>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={`col-${cell.column.id}`}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={COLUMNS.length + 1} style={{ height: paddingBottom, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
