import {
  Bar,
  BarChart as RechartsBarChart,
  CartesianGrid,
  Cell,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { valueTicks } from '../../lib/value-ticks';
import { seriesColor } from './palette';

export interface BarDatum {
  name: string;
  value: number;
}

/** Horizontal bars, one per named value: long names (tools, rules) stay readable. */
export function BarChart({
  data,
  formatValue,
  formatAxis,
  valueLabel,
  colors,
}: {
  data: readonly BarDatum[];
  formatValue: (value: number) => string;
  formatAxis: (value: number) => string;
  valueLabel: string;
  /** A colour per bar by name (e.g. severities); otherwise one colour for all. */
  colors?: Readonly<Record<string, string>>;
}) {
  const height = Math.max(120, data.length * 30 + 40);
  const ticks = valueTicks(Math.max(0, ...data.map((d) => d.value)));
  return (
    <ResponsiveContainer width="100%" height={height}>
      <RechartsBarChart
        accessibilityLayer={false}
        data={data as BarDatum[]}
        layout="vertical"
        margin={{ top: 4, right: 16, bottom: 0, left: 0 }}
      >
        <CartesianGrid strokeDasharray="3 3" horizontal={false} className="chart-grid" />
        <XAxis type="number" tickFormatter={formatAxis} domain={[0, ticks.at(-1)!]} ticks={ticks} interval={0} />
        <YAxis type="category" dataKey="name" width={140} />
        <Tooltip
          formatter={(value) => [formatValue(Number(value)), valueLabel]}
          cursor={{ fillOpacity: 0.1 }}
          contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
        />
        <Bar dataKey="value" name={valueLabel} fill={seriesColor(0)} isAnimationActive={false}>
          {data.map((d) => (
            // Names are anyone's (a tool called `constructor`): only the record's own keys count.
            <Cell key={d.name} fill={colors && Object.hasOwn(colors, d.name) ? colors[d.name] : seriesColor(0)} />
          ))}
        </Bar>
      </RechartsBarChart>
    </ResponsiveContainer>
  );
}
