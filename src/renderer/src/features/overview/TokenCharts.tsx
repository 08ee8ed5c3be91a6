import { useCallback, useMemo } from 'react';
import { BarChart } from '../../components/charts/BarChart';
import { ChartFigure } from '../../components/charts/ChartFigure';
import { StackedAreaChart } from '../../components/charts/StackedAreaChart';
import { QueryState } from '../../components/QueryState';
import { formatCompact, formatCount } from '../../lib/format';
import { groupTotals, scansAndViolations, stackedTokens, totals } from './chart-data';
import { activitySummary, rankingSummary, tokensSummary } from './chart-summaries';
import { useClock } from '../../lib/use-clock';
import { bucketZone, currentBucket, formatBucketStart, periodZone, type TimeRange } from './time-range';
import { useToolPaints } from '../tools/use-tool-paints';
import { tokenStatsQuery, useTokenStats } from './use-overview-stats';

/** The row of the bucket still under way, apart: drawn it would look like a sudden drop. */
function withoutCurrent<T extends { start: number }>(rows: readonly T[], current: number | undefined) {
  return { drawn: rows.filter((row) => row.start !== current), current: rows.find((row) => row.start === current) };
}

const NO_SCANS = 'No scans in this range.';
const ACTIVITY_SERIES = [
  { key: 'scans', label: 'Scans' },
  { key: 'violations', label: 'Violations' },
];

/** The charts drawn from tokens grouped by tool: tokens over time, activity, top tools. */
export function TokenCharts({
  range,
  origin,
  when,
  now,
}: {
  range: TimeRange;
  origin: string | undefined;
  when: string;
  now: number;
}) {
  const stats = useTokenStats(tokenStatsQuery(range, 'tool', origin));
  const clock = useClock();
  const buckets = useMemo(() => stats.data?.buckets ?? [], [stats.data]);
  // What the area charts are given stays the same object while its inputs do (they are memoized).
  const formatX = useCallback(
    (start: number) => formatBucketStart(start, range.bucket, clock.zone),
    [range.bucket, clock.zone],
  );
  const zoneName = periodZone(range.bucket, clock.zone);
  const axisZone = bucketZone(range.bucket, clock.zone);
  const period = `Period (${zoneName})`;
  const sum = totals(buckets);
  const empty = sum.scans === 0 ? NO_SCANS : undefined;
  const byTool = groupTotals(buckets);
  const stacked = useMemo(() => stackedTokens(buckets, range), [buckets, range]);
  const { paints, isPending: paintsPending } = useToolPaints(byTool.map((d) => d.name));
  // "other" (the small tools summed) is no tool: neutral grey.
  const series = useMemo(
    () =>
      stacked.series.map((s) => ({
        ...s,
        paint: s.key === 'other' ? ('other' as const) : paints.get(s.label),
      })),
    [stacked.series, paints],
  );
  const current = currentBucket(range, now);
  const tokenRows = useMemo(() => withoutCurrent(stacked.rows, current), [stacked.rows, current]);
  const activityRows = useMemo(
    () => withoutCurrent(scansAndViolations(buckets, range), current),
    [buckets, range, current],
  );
  const activity = activityRows.drawn;
  const unit = range.bucket === 'hour' ? 'hour' : 'day';
  const underWay = (what: string) =>
    current === undefined
      ? ''
      : ` The current ${unit} (from ${formatX(current)}) is still under way, ${what} so far, and is not drawn.`;
  const tokensSoFar = tokenRows.current ? series.reduce((sum, s) => sum + (tokenRows.current![s.key] ?? 0), 0) : 0;
  const peak = activity.reduce<(typeof activity)[number] | undefined>(
    (best, row) => (row.scans > (best?.scans ?? 0) ? row : best),
    undefined,
  );

  return (
    <QueryState isPending={stats.isPending || paintsPending} error={stats.error}>
      <ChartFigure
        title="Tokens over time by tool"
        summary={tokensSummary(sum.tokens, byTool, when) + underWay(`${formatCount(tokensSoFar)} tokens`)}
        empty={empty}
        table={{
          columns: [period, ...stacked.series.map((s) => s.label)],
          rows: tokenRows.drawn
            .filter((row) => stacked.series.some((s) => row[s.key]))
            .map((row) => [formatX(row.start), ...stacked.series.map((s) => formatCount(row[s.key] ?? 0))]),
        }}
      >
        <StackedAreaChart
          rows={tokenRows.drawn}
          series={series}
          formatX={formatX}
          timeZone={axisZone}
          formatY={formatCompact}
          formatValue={formatCount}
        />
      </ChartFigure>
      <ChartFigure
        title="Scans and violations over time"
        summary={
          activitySummary(
            sum.scans,
            sum.violations,
            peak && {
              label: `${formatX(peak.start)} (${zoneName})`,
              scans: peak.scans,
            },
            when,
          ) + underWay(`${formatCount(activityRows.current?.scans ?? 0)} scans`)
        }
        empty={empty}
        table={{
          columns: [period, 'Scans', 'Violations'],
          rows: activity
            .filter((row) => row.scans > 0)
            .map((row) => [formatX(row.start), formatCount(row.scans), formatCount(row.violations)]),
        }}
      >
        <StackedAreaChart
          rows={activity}
          series={ACTIVITY_SERIES}
          stacked={false}
          formatX={formatX}
          timeZone={axisZone}
          formatY={formatCompact}
          formatValue={formatCount}
        />
      </ChartFigure>
      <ChartFigure
        title="Top tools by tokens"
        summary={rankingSummary(byTool, 'token', 'tool', when)}
        empty={empty}
        table={{ columns: ['Tool', 'Tokens'], rows: byTool.map((d) => [d.name, formatCount(d.value)]) }}
      >
        <BarChart
          data={byTool.slice(0, 10)}
          paints={paints}
          formatValue={formatCount}
          formatAxis={formatCompact}
          valueLabel="Tokens"
        />
      </ChartFigure>
    </QueryState>
  );
}
