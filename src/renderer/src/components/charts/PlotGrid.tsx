/** recharts' XAxis height, which the plot area leaves below itself for the time axis. */
const TIME_AXIS_PX = 30;

export interface PlotMargin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Where d3's linear and time scales put `value` of `[from, to]` on `[start, start + length]`. */
const place = (value: number, from: number, to: number, start: number, length: number): number =>
  start + (to === from ? 0.5 : (value - from) / (to - from)) * length;

/**
 * A recharts chart's dashed grid, on the axes' own ticks, as plain SVG laid under the chart it
 * follows (the caller's box is its containing block and stacking context; styles.css). Last in the
 * box, so that the chart stays its first SVG. recharts' CartesianGrid reads both axes' scales through
 * the chart's store and runs its selectors again at every registration in the chart, 6–12 ms a
 * chart for eight lines; these are the lines it drew, where it drew them: the plot area is the chart
 * less its margins, the value axis's width and the time axis's height.
 */
export function PlotGrid({
  width,
  height,
  margin,
  valueAxisWidth,
  time,
  values,
  stroke,
}: {
  width: number;
  height: number;
  margin: PlotMargin;
  valueAxisWidth: number;
  /** The time axis's ticks, over its domain `[from, to]`. */
  time: { ticks: readonly number[]; from: number; to: number };
  /** The value axis's ticks, from 0 to the last, its domain's end. */
  values: readonly number[];
  stroke: string;
}) {
  const left = margin.left + valueAxisWidth;
  const plotWidth = width - left - margin.right;
  const plotHeight = height - margin.top - margin.bottom - TIME_AXIS_PX;
  const top = margin.top;
  const max = values.at(-1) ?? 0;
  const line = { stroke, strokeDasharray: '3 3', fill: 'none' } as const;
  return (
    <svg className="plot-grid" width={width} height={height} aria-hidden="true">
      {values.map((value, i) => {
        const y = place(value, max, 0, top, plotHeight);
        return <line key={`h${i}`} {...line} x1={left} y1={y} x2={left + plotWidth} y2={y} />;
      })}
      {time.ticks.map((tick, i) => {
        const x = place(tick, time.from, time.to, left, plotWidth);
        return <line key={`v${i}`} {...line} x1={x} y1={top} x2={x} y2={top + plotHeight} />;
      })}
    </svg>
  );
}
