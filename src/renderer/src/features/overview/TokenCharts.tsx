import { BarChart } from '../../components/charts/BarChart';
import { ChartFigure } from '../../components/charts/ChartFigure';
import { StackedAreaChart } from '../../components/charts/StackedAreaChart';
import { QueryState } from '../../components/QueryState';
import { formatCompact, formatCount } from '../../lib/format';
import { groupTotals, scansAndViolations, stackedTokens, totals } from './chart-data';
import { activitySummary, rankingSummary, tokensSummary } from './chart-summaries';
import { formatBucketStart, type TimeRange } from './time-range';
import { useTokenStats } from './use-overview-stats';

const NO_SCANS = 'No scans in this range.';

/** The charts drawn from tokens grouped by tool: tokens over time, activity, top tools. */
export function TokenCharts({ range, when }: { range: TimeRange; when: string }) {
  const stats = useTokenStats(range, 'tool');
  const buckets = stats.data?.buckets ?? [];
  const formatX = (start: number) => formatBucketStart(start, range.bucket);
  const sum = totals(buckets);
  const empty = sum.scans === 0 ? NO_SCANS : undefined;
  const byTool = groupTotals(buckets);
  const stacked = stackedTokens(buckets, range);
  const activity = scansAndViolations(buckets, range);
  const peak = activity.reduce<(typeof activity)[number] | undefined>(
    (best, row) => (row.scans > (best?.scans ?? 0) ? row : best),
    undefined,
  );

  return (
    <QueryState isPending={stats.isPending} error={stats.error}>
      <ChartFigure
        title="Tokens over time by tool"
        summary={tokensSummary(sum.tokens, byTool, when)}
        empty={empty}
        table={{
          columns: ['Period (UTC)', ...stacked.series.map((s) => s.label)],
          rows: stacked.rows
            .filter((row) => stacked.series.some((s) => row[s.key]))
            .map((row) => [formatX(row.start), ...stacked.series.map((s) => formatCount(row[s.key] ?? 0))]),
        }}
      >
        <StackedAreaChart
          rows={stacked.rows}
          series={stacked.series}
          formatX={formatX}
          formatY={formatCompact}
          formatValue={formatCount}
        />
      </ChartFigure>
      <ChartFigure
        title="Scans and violations over time"
        summary={activitySummary(
          sum.scans,
          sum.violations,
          peak && { label: `${formatX(peak.start)}${range.bucket === 'hour' ? ' UTC' : ''}`, scans: peak.scans },
          when,
        )}
        empty={empty}
        table={{
          columns: ['Period (UTC)', 'Scans', 'Violations'],
          rows: activity
            .filter((row) => row.scans > 0)
            .map((row) => [formatX(row.start), formatCount(row.scans), formatCount(row.violations)]),
        }}
      >
        <StackedAreaChart
          rows={activity}
          series={[
            { key: 'scans', label: 'Scans' },
            { key: 'violations', label: 'Violations' },
          ]}
          stacked={false}
          formatX={formatX}
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
        <BarChart data={byTool.slice(0, 10)} formatValue={formatCount} formatAxis={formatCompact} valueLabel="Tokens" />
      </ChartFigure>
    </QueryState>
  );
}
