import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ticksForWidth } from '../../lib/time-ticks';
import { useElementWidth } from '../../lib/use-element-width';
import { valueTicks } from '../../lib/value-ticks';
import { seriesColor } from './palette';

// The plot's width is the chart's less the value axis and the right margin.
const AXIS_AND_MARGINS_PX = 56 + 16;

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
  timeZone,
  stacked = true,
  height = 260,
}: {
  rows: readonly ({ start: number } & Record<string, number>)[];
  series: readonly AreaSeries[];
  /** Labels a row's start in tooltips. */
  formatX: (start: number) => string;
  /** The IANA zone whose clock the time axis's ticks fall on. */
  timeZone: string;
  formatY: (value: number) => string;
  formatValue: (value: number) => string;
  stacked?: boolean;
  height?: number;
}) {
  const [box, width] = useElementWidth<HTMLDivElement>();
  const from = rows[0]?.start ?? 0;
  const to = rows.at(-1)?.start ?? 0;
  const time = ticksForWidth(from, to, timeZone, width - AXIS_AND_MARGINS_PX);
  const values = rows.map((row) =>
    stacked
      ? series.reduce((sum, s) => sum + (row[s.key] ?? 0), 0)
      : Math.max(0, ...series.map((s) => row[s.key] ?? 0)),
  );
  const counts = valueTicks(Math.max(0, ...values));
  return (
    <div ref={box}>
      <ResponsiveContainer width="100%" height={height}>
        <AreaChart
          accessibilityLayer={false}
          data={rows as ({ start: number } & Record<string, number>)[]}
          margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" className="chart-grid" />
          <XAxis
            dataKey="start"
            type="number"
            scale="time"
            domain={[from, to]}
            ticks={time.ticks}
            interval={0}
            tickFormatter={time.format}
          />
          <YAxis tickFormatter={formatY} domain={[0, counts.at(-1)!]} ticks={counts} interval={0} width={56} />
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
    </div>
  );
}
