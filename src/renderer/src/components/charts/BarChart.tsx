import { useId } from 'react';
import { useElementWidth } from '../../lib/use-element-width';
import { valueTicks } from '../../lib/value-ticks';
import { barLayout, BAR_LAYOUT, fitLabel } from './bar-layout';
import { PaintDefs, paintFill } from './PaintDefs';
import { hueColor, type Paint } from './palette';

export interface BarDatum {
  name: string;
  value: number;
}

const LABEL_WIDTH = 140;
const COMPACT = { band: 26, minHeight: 80 };

/**
 * Horizontal bars, one per named value: long names (tools, rules) stay readable. Plain SVG rather
 * than a charting library: a handful of bars needs no scales, state or measuring, and the
 * overview draws four of these at once.
 */
export function BarChart({
  data,
  formatValue,
  formatAxis,
  valueLabel,
  colors,
  paints,
  fill,
  labelWidth = LABEL_WIDTH,
  compact = false,
}: {
  data: readonly BarDatum[];
  formatValue: (value: number) => string;
  formatAxis: (value: number) => string;
  valueLabel: string;
  /** A colour per bar by name (e.g. severities); otherwise one colour for all. */
  colors?: Readonly<Record<string, string>>;
  /** A paint per bar by name (tools): a hue, or a pattern when there are more tools than hues. */
  paints?: ReadonlyMap<string, Paint>;
  /** The one colour of bars that have none by name; the first series hue by default. */
  fill?: string;
  labelWidth?: number;
  /** Narrower bands and a lower least height, for a chart in a card beside others. */
  compact?: boolean;
}) {
  const prefix = useId().replace(/[^\w-]/g, '');
  const [box, width] = useElementWidth<HTMLDivElement>();
  const fillOf = (name: string): string => {
    const paint = paints?.get(name);
    if (paint) return paintFill(prefix, paint);
    // Names are anyone's (a tool called `constructor`): only the record's own keys count.
    return colors && Object.hasOwn(colors, name) ? colors[name]! : (fill ?? hueColor(0));
  };
  const ticks = valueTicks(Math.max(0, ...data.map((d) => d.value)));
  const layout = barLayout({ width, count: data.length, ticks, labelWidth, ...(compact ? COMPACT : {}) });
  const { plot } = layout;
  return (
    <div ref={box} className="bar-chart">
      <svg width={width} height={layout.height}>
        {paints && <PaintDefs prefix={prefix} paints={paints.values()} />}
        <g className="chart-grid">
          {layout.tickX.map((x, i) => (
            <line key={i} x1={x} x2={x} y1={plot.top} y2={plot.bottom} strokeDasharray="3 3" />
          ))}
        </g>
        {data.map((d, i) => {
          const band = layout.bands[i]!;
          return (
            <g key={d.name} className="bar-chart-row">
              <title>{`${d.name}: ${formatValue(d.value)} ${valueLabel.toLowerCase()}`}</title>
              <rect
                className="bar-chart-band"
                x={plot.left}
                y={band.middle - layout.band / 2}
                width={plot.right - plot.left}
                height={layout.band}
              />
              <text
                className="chart-tick-label"
                x={plot.left - BAR_LAYOUT.labelGap}
                y={band.middle}
                dy="0.35em"
                textAnchor="end"
              >
                {fitLabel(d.name, labelWidth)}
              </text>
              <rect
                className="bar-chart-bar"
                x={plot.left}
                y={band.top}
                width={layout.length(d.value)}
                height={band.thickness}
                fill={fillOf(d.name)}
              />
            </g>
          );
        })}
        <g className="bar-chart-axis">
          <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
          {ticks.map((tick, i) => (
            <text key={tick} className="chart-tick-label" x={layout.tickX[i]} y={plot.bottom + 16} textAnchor="middle">
              {formatAxis(tick)}
            </text>
          ))}
        </g>
      </svg>
    </div>
  );
}
