import { useEffect, useMemo, useState } from 'react';
import type { Violation } from '../../../../shared/api/scans';
import { ScanTimelineChart } from '../../components/charts/ScanTimelineChart';
import { QueryState } from '../../components/QueryState';
import { formatCount, formatDateTime } from '../../lib/format';
import type { ScanDetailSearch } from './detail-search';
import { TimelineEntriesTable } from './TimelineEntriesTable';
import {
  bucketPoints,
  chooseSource,
  FULL_TIMELINE_LIMIT,
  indicesForWindow,
  needsBuckets,
  rawPoints,
  timelineSummary,
  violationsByEntry,
  windowForIndices,
} from './timeline-shaping';
import { useTimeline, useTimelineBuckets } from './use-scan-detail';

const BRUSH_COMMIT_MS = 350;
const formatTime = (ms: number): string => formatDateTime(new Date(ms).toISOString());

/** The evidence timeline: chart with zoom brush, then the entries table. Zoom, filter and highlight live in the URL. */
export function TimelineSection({
  scanId,
  requestCount,
  violations,
  search,
  onSearch,
}: {
  scanId: string;
  requestCount: number;
  violations: Violation[];
  search: ScanDetailSearch;
  onSearch: (patch: Partial<ScanDetailSearch>, replace: boolean) => void;
}) {
  const timeline = useTimeline(scanId, requestCount);
  const buckets = useTimelineBuckets(scanId, requestCount);
  const byEntry = useMemo(() => violationsByEntry(violations), [violations]);
  const large = needsBuckets(requestCount);
  const window =
    search.from !== undefined && search.to !== undefined ? { from: search.from, to: search.to } : undefined;

  const overview = useMemo(
    () => (large ? bucketPoints(buckets.data ?? []) : rawPoints(timeline.data ?? [], byEntry)),
    [large, buckets.data, timeline.data, byEntry],
  );
  const source = chooseSource({
    requestCount,
    buckets: buckets.data,
    window,
    rawAvailable: timeline.data !== undefined,
  });
  const points = useMemo(
    () =>
      source === 'raw' ? rawPoints(timeline.data ?? [], byEntry, window) : bucketPoints(buckets.data ?? [], window),
    // The window is rebuilt each render from two numbers: depend on them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [source, timeline.data, buckets.data, byEntry, search.from, search.to],
  );

  // The brush moves freely while dragged; the URL follows once it rests.
  const [pending, setPending] = useState<{ startIndex: number; endIndex: number } | undefined>();
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      const next = windowForIndices(overview, pending.startIndex, pending.endIndex);
      onSearch({ from: next?.from, to: next?.to }, true);
      setPending(undefined);
    }, BRUSH_COMMIT_MS);
    return () => clearTimeout(timer);
  }, [pending, overview, onSearch]);
  const brush = pending ?? indicesForWindow(overview, window);

  const chartQuery = source === 'raw' ? timeline : buckets;
  const highlightEntry = search.entry !== undefined ? timeline.data?.[search.entry] : undefined;
  const summary = timelineSummary(points, source, requestCount, formatCount, formatTime);

  return (
    <>
      <section className="card" aria-labelledby="timeline-heading">
        <div className="section-head">
          <h2 id="timeline-heading">Evidence timeline</h2>
          {window && (
            <button type="button" onClick={() => onSearch({ from: undefined, to: undefined }, false)}>
              Reset zoom
            </button>
          )}
        </div>
        <QueryState
          isPending={chartQuery.isPending}
          error={chartQuery.error}
          isEmpty={overview.length === 0}
          empty="This scan has no timeline entries."
        >
          <figure className="chart-figure">
            <ScanTimelineChart
              points={points}
              overview={overview}
              source={source}
              brush={brush}
              onBrush={(startIndex, endIndex) => setPending({ startIndex, endIndex })}
              highlight={highlightEntry ? Date.parse(highlightEntry.timestamp) : undefined}
            />
            <figcaption>
              {summary}{' '}
              {source === 'buckets'
                ? 'Zoom in with the brush below the chart to see single requests.'
                : overview.length > 1
                  ? 'Drag the brush below the chart to zoom.'
                  : ''}
            </figcaption>
          </figure>
        </QueryState>
      </section>
      <section className="card" aria-labelledby="entries-heading">
        <h2 id="entries-heading">Timeline entries</h2>
        {requestCount > FULL_TIMELINE_LIMIT ? (
          <p className="state">
            This timeline has {formatCount(requestCount)} entries, too many to list here; download the evidence to read
            them all.
          </p>
        ) : (
          <QueryState isPending={timeline.isPending} error={timeline.error}>
            <TimelineEntriesTable
              timeline={timeline.data ?? []}
              violationsByEntry={byEntry}
              actionFilter={search.action}
              onActionFilter={(text) => onSearch({ action: text || undefined }, true)}
              highlighted={search.entry}
            />
          </QueryState>
        )}
      </section>
    </>
  );
}
