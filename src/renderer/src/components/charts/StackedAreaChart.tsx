import { memo, useId, useMemo } from 'react';
import { Area, AreaChart, Tooltip, XAxis, YAxis } from 'recharts';
import { ticksForWidth } from '../../lib/time-ticks';
import { useElementWidth } from '../../lib/use-element-width';
import { valueTicks } from '../../lib/value-ticks';
import { AxisTick } from './AxisTick';
import { PaintDefs, paintFill } from './PaintDefs';
import { PlotGrid } from './PlotGrid';
import { timeAxisProps } from './time-axis';
import { hueColor, OTHER_COLOR, paintAt, type Paint } from './palette';

const MARGIN = { top: 8, right: 16, bottom: 0, left: 0 };
const VALUE_AXIS_PX = 56;
// The plot's width is the chart's less the value axis and the right margin.
const AXIS_AND_MARGINS_PX = VALUE_AXIS_PX + MARGIN.right;
/** The grid's colour: recharts' own default, which these charts always had. */
const GRID_STROKE = '#ccc';
/** The room the legend below the plot takes of the chart's height (one line of it). */
const LEGEND_PX = 28;

export interface AreaSeries {
  key: string;
  label: string;
  /** A fixed paint (a tool's own), or 'other' (grey); by position otherwise. */
  paint?: Paint | 'other';
}

const paintOf = (s: AreaSeries, index: number): Paint | 'other' => s.paint ?? paintAt(index);

/**
 * Values over time: stacked areas (parts of a whole), or overlapping ones with `stacked={false}`.
 * Each render of a recharts chart runs its store's selectors anew, which costs tens of ms a chart:
 * it renders only once its width is known and again only when its props change (so the caller
 * keeps them stable), with every domain and tick given, so that recharts measures nothing.
 */
export const StackedAreaChart = memo(function StackedAreaChart({
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
  const time = useMemo(
    () => ticksForWidth(from, to, timeZone, width - AXIS_AND_MARGINS_PX),
    [from, to, timeZone, width],
  );
  const counts = useMemo(() => {
    const values = rows.map((row) =>
      stacked
        ? series.reduce((sum, s) => sum + (row[s.key] ?? 0), 0)
        : Math.max(0, ...series.map((s) => row[s.key] ?? 0)),
    );
    return valueTicks(Math.max(0, ...values));
  }, [rows, series, stacked]);
  const prefix = useId().replace(/[^\w-]/g, '');
  const paints = series.map(paintOf);
  const fill = (i: number): string => (paints[i] === 'other' ? OTHER_COLOR : paintFill(prefix, paints[i] as Paint));
  const stroke = (i: number): string => (paints[i] === 'other' ? OTHER_COLOR : hueColor((paints[i] as Paint).hue));
  return (
    <div ref={box}>
      {/* The plot alone: recharts' Legend would measure itself and lay the whole chart out again. */}
      <div className="plot-box" style={{ height: height - LEGEND_PX }}>
        {width > 0 && (
          <AreaChart
            width={width}
            height={height - LEGEND_PX}
            accessibilityLayer={false}
            data={rows as ({ start: number } & Record<string, number>)[]}
            margin={MARGIN}
          >
            <PaintDefs prefix={prefix} paints={paints.filter((p) => p !== 'other')} />
            <XAxis dataKey="start" {...timeAxisProps(time, from, to)} />
            <YAxis
              tickFormatter={formatY}
              domain={[0, counts.at(-1)!]}
              ticks={counts}
              interval={0}
              niceTicks="none"
              width={VALUE_AXIS_PX}
              tick={AxisTick}
            />
            <Tooltip
              labelFormatter={(label) => formatX(Number(label))}
              formatter={(value) => formatValue(Number(value))}
              contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
            />
            {series.map((s, index) => (
              <Area
                key={s.key}
                type="monotone"
                dataKey={s.key}
                name={s.label}
                stackId={stacked ? 'stack' : undefined}
                stroke={stroke(index)}
                fill={fill(index)}
                fillOpacity={stacked ? 0.55 : 0.2}
                isAnimationActive={false}
              />
            ))}
          </AreaChart>
        )}
        {width > 0 && (
          <PlotGrid
            width={width}
            height={height - LEGEND_PX}
            margin={MARGIN}
            valueAxisWidth={VALUE_AXIS_PX}
            time={{ ticks: time.ticks, from, to }}
            values={counts}
            stroke={GRID_STROKE}
          />
        )}
      </div>
      {/* Drawn from the series: recharts' legend icons show a stroke, never a pattern. */}
      <ul className="recharts-default-legend chart-legend">
        {series.map((s, i) => (
          <li key={s.key} className="recharts-legend-item">
            <svg width={14} height={14} aria-hidden="true">
              <path d="M0,2h14v10h-14z" fill={fill(i)} stroke={stroke(i)} />
            </svg>
            <span className="recharts-legend-item-text">{s.label}</span>
          </li>
        ))}
      </ul>
    </div>
  );
});
