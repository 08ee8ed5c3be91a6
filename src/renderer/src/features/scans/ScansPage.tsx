import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { ScanSummary } from '../../../../shared/api/scans';
import { QueryState } from '../../components/QueryState';
import { Pager } from './Pager';
import { ScanFilters } from './ScanFilters';
import {
  DEFAULT_LIMIT,
  pageInfo,
  parseScansSearch,
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

  return (
    <section className="scans-page">
      <h1>Scans</h1>
      <ScanFilters search={search} onChange={go} />
      <QueryState
        isPending={scans.isPending}
        error={scans.error}
        isEmpty={scans.data?.total === 0}
        empty="No scans match these filters."
      >
        <div
          className={scans.isPlaceholderData ? 'scans-results is-stale' : 'scans-results'}
          aria-busy={scans.isFetching}
        >
          <Pager
            info={info}
            limit={limit}
            onOffset={(nextOffset) => go({ ...search, offset: nextOffset })}
            onLimit={(nextLimit) => go({ ...search, limit: nextLimit, offset: undefined })}
          />
          {rows.length === 0 ? (
            <p className="state">This page is past the last scan.</p>
          ) : (
            <ScansTable rows={rows} sort={search.sort} onSort={sortBy} onOpen={open} />
          )}
        </div>
      </QueryState>
    </section>
  );
}
