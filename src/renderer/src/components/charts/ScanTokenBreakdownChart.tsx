import { formatCompact, formatCount } from '../../lib/format';
import { BarChart } from './BarChart';

/** Token types of one scan as horizontal bars; the caller shows the same numbers as text. */
export function ScanTokenBreakdownChart({ rows }: { rows: { name: string; tokens: number }[] }) {
  return (
    <BarChart
      data={rows.map((row) => ({ name: row.name, value: row.tokens }))}
      formatValue={formatCount}
      formatAxis={formatCompact}
      valueLabel="Tokens"
      fill="var(--accent)"
      labelWidth={72}
      compact
    />
  );
}
