import { BarChart } from '../../components/charts/BarChart';
import { ChartFigure } from '../../components/charts/ChartFigure';
import { QueryState } from '../../components/QueryState';
import { formatCompact, formatCount } from '../../lib/format';
import { ruleData, severityData } from './chart-data';
import { rankingSummary } from './chart-summaries';
import type { TimeRange } from './time-range';
import { useViolationStats } from './use-overview-stats';

// The severity badges' colours, so a severity looks the same on every page.
const SEVERITY_COLORS = {
  low: 'var(--sev-low)',
  medium: 'var(--sev-medium)',
  high: 'var(--sev-high)',
  critical: 'var(--sev-critical)',
};

const NO_VIOLATIONS = 'No violations in this range.';

export function ViolationCharts({
  range,
  origin,
  when,
}: {
  range: TimeRange;
  origin: string | undefined;
  when: string;
}) {
  const stats = useViolationStats(range, origin);
  const bySeverity = stats.data ? severityData(stats.data) : [];
  const byRule = stats.data ? ruleData(stats.data) : [];
  const empty = byRule.length === 0 ? NO_VIOLATIONS : undefined;
  return (
    <QueryState isPending={stats.isPending} error={stats.error}>
      <ChartFigure
        title="Violations by severity"
        summary={rankingSummary(bySeverity, 'violation', 'severity', when)}
        empty={empty}
        table={{ columns: ['Severity', 'Violations'], rows: bySeverity.map((d) => [d.name, formatCount(d.value)]) }}
      >
        <BarChart
          data={bySeverity}
          colors={SEVERITY_COLORS}
          formatValue={formatCount}
          formatAxis={formatCompact}
          valueLabel="Violations"
        />
      </ChartFigure>
      <ChartFigure
        title="Violations by rule"
        summary={rankingSummary(byRule, 'violation', 'rule', when)}
        empty={empty}
        table={{ columns: ['Rule', 'Violations'], rows: byRule.map((d) => [d.name, formatCount(d.value)]) }}
      >
        <BarChart data={byRule} formatValue={formatCount} formatAxis={formatCompact} valueLabel="Violations" />
      </ChartFigure>
    </QueryState>
  );
}
