import { useCallback, useEffect, useMemo, useState } from 'react';
import { ScanTimelineChart } from '../../components/charts/ScanTimelineChart';
import { QueryState } from '../../components/QueryState';
import { formatCount } from '../../lib/format';
import { useClock } from '../../lib/use-clock';
import { zoomWindow, type ScanDetailSearch } from './detail-search';
import { TimelineEntriesTable } from './TimelineEntriesTable';
import {
  bucketPoints,
  chooseSource,
  indicesForWindow,
  isComplete,
  needsBuckets,
  pageOfRow,
  rawPoints,
  timelineSummary,
  wantsRawWindow,
  windowForIndices,
} from './timeline-shaping';
import { useRawTimeline, useTimelineBuckets, useTimelinePage, useWindowBuckets } from './use-scan-detail';
import { useEntryViolations } from './use-scan-violations';
import { entryChunks } from './violation-paging';

const BRUSH_COMMIT_MS = 350;

/** The evidence timeline: chart with zoom brush, then the entries table. Zoom, filter and highlight live in the URL. */
export function TimelineSection({
  scanId,
  requestCount,
  hasViolations,
  search,
  onSearch,
}: {
  scanId: string;
  requestCount: number;
  /** Whether any violation exists to mark: without one, no counts are asked for. */
  hasViolations: boolean;
  search: ScanDetailSearch;
  onSearch: (patch: Partial<ScanDetailSearch>, replace: boolean) => void;
}) {
  const clock = useClock();
  const buckets = useTimelineBuckets(scanId, requestCount);
  const large = needsBuckets(requestCount);
  const window = zoomWindow(search);
  // Small timelines come whole (one request) and zoom client-side; large ones fetch a window's raw
  // entries only once the buckets say it holds few enough.
  const zoomRaw = wantsRawWindow({ requestCount, buckets: buckets.data, window });
  const raw = useRawTimeline(scanId, large ? window : undefined, !large || zoomRaw);
  const rawData = isComplete(raw.data) ? raw.data.entries : undefined;
  // The drawn entries' violation counts, a chunk of indexes at a time (shared with the table).
  const chunks = useMemo(() => entryChunks((rawData ?? []).map((entry) => entry.index)), [rawData]);
  const byEntry = useEntryViolations(scanId, chunks, hasViolations);
  // Zoomed into a long timeline but still too many entries to draw: the window's own buckets.
  const zoomBuckets = useWindowBuckets(scanId, window, large && !zoomRaw);
  const windowBuckets = (window && zoomBuckets.data) ?? buckets.data;

  const overview = useMemo(
    () => (large ? bucketPoints(buckets.data ?? []) : rawPoints(rawData ?? [], byEntry)),
    [large, buckets.data, rawData, byEntry],
  );
  const source = chooseSource({ requestCount, buckets: buckets.data, window, rawAvailable: rawData !== undefined });
  const points = useMemo(
    () => (source === 'raw' ? rawPoints(rawData ?? [], byEntry, window) : bucketPoints(windowBuckets ?? [], window)),
    // The window is rebuilt each render from two numbers: depend on them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [source, rawData, windowBuckets, byEntry, search.from, search.to],
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
  const brush = useMemo(
    () => pending ?? indicesForWindow(overview, window),
    // The window is rebuilt each render from two numbers: depend on them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [pending, overview, search.from, search.to],
  );
  const onBrush = useCallback((startIndex: number, endIndex: number) => setPending({ startIndex, endIndex }), []);

  const chartQuery = large ? buckets : raw;
  // The entries table fetches the same page to show the entry, so this is usually a cache hit.
  const highlightPage = useTimelinePage(scanId, search.entry === undefined ? undefined : pageOfRow(search.entry));
  const highlightEntry =
    search.entry === undefined ? undefined : highlightPage.data?.entries.find((e) => e.index === search.entry);
  const summary = timelineSummary(points, source, requestCount, formatCount, clock.dateTime, clock.label);

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
              onBrush={onBrush}
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
        <TimelineEntriesTable
          scanId={scanId}
          requestCount={requestCount}
          hasViolations={hasViolations}
          actionFilter={search.action}
          onActionFilter={(text) => onSearch({ action: text || undefined }, true)}
          window={window}
          highlighted={search.entry}
        />
      </section>
    </>
  );
}
