import { BarChart } from '../../components/charts/BarChart';
import { ChartFigure } from '../../components/charts/ChartFigure';
import { QueryState } from '../../components/QueryState';
import { formatCompact, formatCount } from '../../lib/format';
import { groupTotals } from './chart-data';
import { rankingSummary } from './chart-summaries';
import type { TimeRange } from './time-range';
import { actionTotalsQuery, useTokenStats } from './use-overview-stats';

export function ActionChart({ range, origin, when }: { range: TimeRange; origin: string | undefined; when: string }) {
  const stats = useTokenStats(actionTotalsQuery(range, origin));
  const byAction = groupTotals(stats.data?.buckets ?? []);
  return (
    <QueryState isPending={stats.isPending} error={stats.error}>
      <ChartFigure
        title="Tokens by action"
        summary={rankingSummary(byAction, 'token', 'action', when)}
        empty={byAction.length === 0 ? 'No scans in this range.' : undefined}
        table={{ columns: ['Action', 'Tokens'], rows: byAction.map((d) => [d.name, formatCount(d.value)]) }}
      >
        <BarChart
          data={byAction.slice(0, 12)}
          formatValue={formatCount}
          formatAxis={formatCompact}
          valueLabel="Tokens"
        />
      </ChartFigure>
    </QueryState>
  );
}
