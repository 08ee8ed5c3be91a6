import { Link, useCanGoBack, useNavigate, useParams, useRouter, useSearch } from '@tanstack/react-router';
import { useCallback } from 'react';
import { ScanTokenBreakdownChart } from '../../components/charts/ScanTokenBreakdownChart';
import { QueryState } from '../../components/QueryState';
import { ServerError } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { parseScanDetailSearch, type ScanDetailSearch } from './detail-search';
import { PackageIdFallback } from './PackageIdFallback';
import { ScanSummaryCard } from './ScanSummaryCard';
import { breakdownRows } from './timeline-shaping';
import { TimelineSection } from './TimelineSection';
import { useEvidenceSummary, useScan } from './use-scan-detail';
import { ViolationBreakdown } from './ViolationBreakdown';

function BackToScans() {
  const router = useRouter();
  const canGoBack = useCanGoBack();
  // Back keeps the list's filters and page, which live in the previous URL.
  if (canGoBack) {
    return (
      <button type="button" className="link-button" onClick={() => router.history.back()}>
        ← Back to scans
      </button>
    );
  }
  return <Link to="/scans">← All scans</Link>;
}

function NotFoundState({ scanId }: { scanId: string }) {
  return (
    <div className="state" role="alert">
      <p>
        Scan not found: there is no scan <code>{scanId}</code>, or it is not visible to you.
      </p>
      <Link to="/scans">Browse all scans</Link>
    </div>
  );
}

export function ScanDetailPage() {
  const { scanId } = useParams({ from: '/scans/$scanId' });
  const search = useSearch({ from: '/scans/$scanId' });
  const navigate = useNavigate({ from: '/scans/$scanId' });
  const scan = useScan(scanId);
  const evidence = useEvidenceSummary(scanId);
  const onSearch = useCallback(
    (patch: Partial<ScanDetailSearch>, replace: boolean) =>
      void navigate({
        search: (previous) => parseScanDetailSearch({ ...previous, ...patch }),
        replace,
        resetScroll: false,
      }),
    [navigate],
  );
  const notFound = scan.error instanceof ServerError && scan.error.status === 404;
  const breakdown = breakdownRows(evidence.data?.evidence.token_breakdown);

  return (
    <section className="scan-detail">
      <BackToScans />
      <h1>Scan {scan.data ? `· ${scan.data.tool}` : ''}</h1>
      {notFound ? (
        <PackageIdFallback scanId={scanId}>
          <NotFoundState scanId={scanId} />
        </PackageIdFallback>
      ) : (
        <QueryState isPending={scan.isPending} error={scan.error}>
          {scan.data && <ScanSummaryCard scan={scan.data} />}
          <div className="scan-detail-grid">
            <section className="card" aria-labelledby="violations-heading">
              <h2 id="violations-heading">
                Violations{scan.data ? ` (${formatCount(scan.data.violation_count)})` : ''}
              </h2>
              {scan.data && (
                <ViolationBreakdown
                  scanId={scanId}
                  selectedEntry={search.entry}
                  // Jumping to an entry clears the entries filter and the zoom, so that the entry is in the list.
                  onSelectEntry={(entry) =>
                    onSearch({ entry, action: undefined, from: undefined, to: undefined }, false)
                  }
                />
              )}
            </section>
            <section className="card" aria-labelledby="breakdown-heading">
              <h2 id="breakdown-heading">Token breakdown</h2>
              <QueryState
                isPending={evidence.isPending}
                error={evidence.error}
                isEmpty={breakdown.length === 0}
                empty="This scan's evidence has no token breakdown."
              >
                <figure className="chart-figure">
                  <ScanTokenBreakdownChart rows={breakdown} />
                  <figcaption>
                    {breakdown.map((row) => `${row.name}: ${formatCount(row.tokens)} tokens`).join('; ')}.
                  </figcaption>
                </figure>
              </QueryState>
            </section>
          </div>
          <QueryState isPending={evidence.isPending} error={evidence.error}>
            {evidence.data && (
              <TimelineSection
                scanId={scanId}
                requestCount={evidence.data.evidence.request_count}
                hasViolations={(scan.data?.violation_count ?? 0) > 0}
                search={search}
                onSearch={onSearch}
              />
            )}
          </QueryState>
        </QueryState>
      )}
    </section>
  );
}
