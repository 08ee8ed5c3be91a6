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
import { useId } from 'react';
import { PaintDefs, paintFill } from './PaintDefs';
import { hueColor, type Paint } from './palette';

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
  paints,
}: {
  data: readonly BarDatum[];
  formatValue: (value: number) => string;
  formatAxis: (value: number) => string;
  valueLabel: string;
  /** A colour per bar by name (e.g. severities); otherwise one colour for all. */
  colors?: Readonly<Record<string, string>>;
  /** A paint per bar by name (tools): a hue, or a pattern when there are more tools than hues. */
  paints?: ReadonlyMap<string, Paint>;
}) {
  const prefix = useId().replace(/[^\w-]/g, '');
  const fillOf = (name: string): string => {
    const paint = paints?.get(name);
    if (paint) return paintFill(prefix, paint);
    // Names are anyone's (a tool called `constructor`): only the record's own keys count.
    return colors && Object.hasOwn(colors, name) ? colors[name]! : hueColor(0);
  };
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
        {paints && <PaintDefs prefix={prefix} paints={paints.values()} />}
        <CartesianGrid strokeDasharray="3 3" horizontal={false} className="chart-grid" />
        <XAxis type="number" tickFormatter={formatAxis} domain={[0, ticks.at(-1)!]} ticks={ticks} interval={0} />
        <YAxis type="category" dataKey="name" width={140} />
        <Tooltip
          formatter={(value) => [formatValue(Number(value)), valueLabel]}
          cursor={{ fillOpacity: 0.1 }}
          contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
        />
        <Bar dataKey="value" name={valueLabel} fill={hueColor(0)} isAnimationActive={false}>
          {data.map((d) => (
            <Cell key={d.name} fill={fillOf(d.name)} />
          ))}
        </Bar>
      </RechartsBarChart>
    </ResponsiveContainer>
  );
}
