import { useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { ScanSummary } from '../../../../shared/api/scans';
import { QueryState } from '../../components/QueryState';
import { emptyList, isFiltered } from '../first-visit/first-steps';
import { FirstVisit } from '../first-visit/FirstVisit';
import { useStoreTotal } from '../first-visit/use-store-total';
import { NewScansPill } from '../live/NewScansPill';
import { ListDownloads } from './ListDownloads';
import { scanKeys } from './scans-api';
import { clickPage, clickRow, EMPTY_SELECTION, pageState } from './selection';
import { SelectionBar } from './SelectionBar';
import { Pager } from './Pager';
import { ScanFilters } from './ScanFilters';
import {
  DEFAULT_LIMIT,
  pageInfo,
  parseScansSearch,
  toScanListQuery,
  toggleSort,
  type ScansSearch,
  type SortColumn,
} from './scans-search';
import { ScansTable } from './ScansTable';
import { useScans } from './use-scans';

// One empty list for every render: the table resets its selection when it gets a new array.
const NO_SCANS: ScanSummary[] = [];

export function ScansPage() {
  const search = useSearch({ from: '/scans' });
  const navigate = useNavigate({ from: '/scans' });
  const scans = useScans(search);
  const go = useCallback(
    (next: ScansSearch) => void navigate({ search: parseScansSearch(next), resetScroll: false }),
    [navigate],
  );
  const open = useCallback(
    (scan: ScanSummary) => void navigate({ to: '/scans/$scanId', params: { scanId: scan.id } }),
    [navigate],
  );
  const limit = search.limit ?? DEFAULT_LIMIT;
  const offset = search.offset ?? 0;
  const rows = scans.data?.scans ?? NO_SCANS;
  const info = pageInfo(offset, limit, rows.length, scans.data?.total ?? 0);
  const sortBy = useCallback((column: SortColumn) => go(toggleSort(search, column)), [go, search]);
  const queryClient = useQueryClient();
  const [selection, setSelection] = useState(EMPTY_SELECTION);
  const filtered = isFiltered(search);
  const empty = scans.data?.total === 0;
  // Under filters, only the workspace's own count tells an empty workspace from filters that miss.
  const storeTotal = useStoreTotal(empty && filtered);
  const whyEmpty = empty ? emptyList(filtered, storeTotal) : undefined;
  const pageIds = useMemo(() => rows.map((scan) => scan.id), [rows]);
  const shown = useMemo(() => new Set(rows.map((scan) => scan.id)), [rows]);
  const showNew = useCallback(() => {
    go({ ...search, offset: undefined });
    void queryClient.invalidateQueries({ queryKey: scanKeys.lists });
  }, [go, search, queryClient]);

  return (
    <section className="scans-page">
      <h1>Scans</h1>
      <ScanFilters search={search} onChange={go} />
      <ListDownloads search={search} total={scans.data?.total} />
      <NewScansPill fetchedAt={scans.dataUpdatedAt} filters={toScanListQuery(search)} shown={shown} onShow={showNew} />
      {whyEmpty === 'first-visit' && <FirstVisit />}
      <QueryState
        isPending={scans.isPending || whyEmpty === 'unknown'}
        error={scans.error}
        isEmpty={empty}
        empty={whyEmpty === 'no-match' ? 'No scans match these filters.' : null}
      >
        <div
          className={scans.isPlaceholderData ? 'scans-results is-stale' : 'scans-results'}
          aria-busy={scans.isFetching}
        >
          <SelectionBar selection={selection} search={search} total={scans.data?.total ?? 0} onSelect={setSelection} />
          <Pager
            info={info}
            limit={limit}
            onOffset={(nextOffset) => go({ ...search, offset: nextOffset })}
            onLimit={(nextLimit) => go({ ...search, limit: nextLimit, offset: undefined })}
          />
          {rows.length === 0 ? (
            <p className="state">This page is past the last scan.</p>
          ) : (
            <ScansTable
              rows={rows}
              sort={search.sort}
              onSort={sortBy}
              onOpen={open}
              checked={selection.ids}
              onCheck={(scan, shift) => setSelection((current) => clickRow(current, scan.id, pageIds, shift))}
              onCheckPage={() => setSelection((current) => clickPage(current, pageIds))}
              pageChecked={pageState(selection, pageIds)}
            />
          )}
        </div>
      </QueryState>
    </section>
  );
}
