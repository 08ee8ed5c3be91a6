import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { seriesColor } from './palette';

export interface AreaSeries {
  key: string;
  label: string;
  /** Fixed colour (a tool's own); by position otherwise. */
  color?: string;
}

/** Values over time: stacked areas (parts of a whole), or overlapping ones with `stacked={false}`. */
export function StackedAreaChart({
  rows,
  series,
  formatX,
  formatY,
  formatValue,
  stacked = true,
  height = 260,
}: {
  rows: readonly ({ start: number } & Record<string, number>)[];
  series: readonly AreaSeries[];
  formatX: (start: number) => string;
  formatY: (value: number) => string;
  formatValue: (value: number) => string;
  stacked?: boolean;
  height?: number;
}) {
  return (
    <ResponsiveContainer width="100%" height={height}>
      <AreaChart
        accessibilityLayer={false}
        data={rows as ({ start: number } & Record<string, number>)[]}
        margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
      >
        <CartesianGrid strokeDasharray="3 3" className="chart-grid" />
        <XAxis dataKey="start" tickFormatter={formatX} minTickGap={24} />
        <YAxis tickFormatter={formatY} width={56} />
        <Tooltip
          labelFormatter={(label) => formatX(Number(label))}
          formatter={(value) => formatValue(Number(value))}
          contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
        />
        <Legend />
        {series.map((s, index) => (
          <Area
            key={s.key}
            type="monotone"
            dataKey={s.key}
            name={s.label}
            stackId={stacked ? 'stack' : undefined}
            stroke={s.color ?? seriesColor(index)}
            fill={s.color ?? seriesColor(index)}
            fillOpacity={stacked ? 0.55 : 0.2}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </ResponsiveContainer>
  );
}
