import { Area, AreaChart, Brush, ComposedChart, Line, ReferenceLine, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import { memo, useMemo } from 'react';
import type { ChartPoint, TimelineSource } from '../../features/scan-detail/timeline-shaping';
import { formatCompact, formatCount } from '../../lib/format';
import { tickFormat, ticksForWidth } from '../../lib/time-ticks';
import { useClock } from '../../lib/use-clock';
import { useElementWidth } from '../../lib/use-element-width';
import { valueTicks } from '../../lib/value-ticks';
import { AxisTick } from './AxisTick';
import { PlotGrid } from './PlotGrid';
import { timeAxisProps } from './time-axis';

const MARGIN = { top: 8, right: 16, bottom: 0, left: 8 };
const TOKEN_AXIS_PX = 56;
// The plot's width is the chart's less the token axis and the margins.
const AXIS_AND_MARGINS_PX = TOKEN_AXIS_PX + MARGIN.left + MARGIN.right;
/** The plot's height and the brush strip's below it: the box keeps their room until its width is known. */
const PLOT_PX = 260;
const STRIP_PX = 56;

/**
 * Tokens per request (or per bucket) over time, violations as red diamonds, and below it an
 * overview strip whose brush picks the zoom window. Drawn once its width is known and again only
 * when its props change (the caller keeps them stable): each render of a recharts chart runs its
 * store's selectors anew, and its thousand points make that the page's largest cost.
 */
export const ScanTimelineChart = memo(function ScanTimelineChart({
  points,
  overview,
  source,
  brush,
  onBrush,
  highlight,
}: {
  points: ChartPoint[];
  overview: ChartPoint[];
  source: TimelineSource;
  brush: { startIndex: number; endIndex: number };
  onBrush: (startIndex: number, endIndex: number) => void;
  highlight: number | undefined;
}) {
  const clock = useClock();
  const [box, width] = useElementWidth<HTMLDivElement>();
  const marked = useMemo(() => points.filter((point) => point.violations > 0), [points]);
  const unit = source === 'raw' ? 'tokens per request' : 'tokens per bucket';
  const from = points[0]?.t ?? 0;
  const to = points.at(-1)?.t ?? 0;
  const time = useMemo(
    () => ticksForWidth(from, to, clock.zone, width - AXIS_AND_MARGINS_PX),
    [from, to, clock.zone, width],
  );
  const tokens = useMemo(() => valueTicks(points.reduce((max, point) => Math.max(max, point.tokens), 0)), [points]);
  // The brush's two ends name exact instants: to the second, dated once the timeline spans days.
  const brushLabel = tickFormat(overview[0]?.t ?? 0, overview.at(-1)?.t ?? 0, clock.zone, 1000);
  return (
    <div
      className="scan-timeline-chart"
      ref={box}
      style={{ minHeight: overview.length > 1 ? PLOT_PX + STRIP_PX : PLOT_PX }}
    >
      {width > 0 && (
        <ComposedChart width={width} height={PLOT_PX} data={points} margin={MARGIN}>
          <XAxis dataKey="t" {...timeAxisProps(time, from, to)} stroke="var(--muted)" />
          <YAxis
            tickFormatter={formatCompact}
            domain={[0, tokens.at(-1)!]}
            ticks={tokens}
            interval={0}
            niceTicks="none"
            stroke="var(--muted)"
            width={TOKEN_AXIS_PX}
            tick={AxisTick}
          />
          <Tooltip
            labelFormatter={(value) => `${clock.dateTime(Number(value))} ${clock.label}`}
            formatter={(value, name) => [formatCount(Number(value)), name === 'tokens' ? unit : String(name)]}
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
          />
          <Line
            dataKey="tokens"
            name="tokens"
            stroke="var(--accent)"
            dot={source === 'raw' && points.length <= 300}
            isAnimationActive={false}
          />
          {/* Recharts draws a Scatter with an empty `data` over the chart's own data: no markers, no series. */}
          {marked.length > 0 && (
            <Scatter data={marked} dataKey="tokens" name="violations" fill="var(--sev-critical)" shape="diamond" />
          )}
          {highlight !== undefined && (
            <ReferenceLine x={highlight} stroke="var(--sev-high)" strokeWidth={2} label="selected" />
          )}
        </ComposedChart>
      )}
      {width > 0 && (
        <PlotGrid
          width={width}
          height={PLOT_PX}
          margin={MARGIN}
          valueAxisWidth={TOKEN_AXIS_PX}
          time={{ ticks: time.ticks, from, to }}
          values={tokens}
          stroke="var(--border)"
        />
      )}
      {width > 0 && overview.length > 1 && (
        <ComposedChart
          width={width}
          height={STRIP_PX}
          data={overview}
          margin={{ top: 0, right: 16, bottom: 0, left: 64 }}
        >
          <Brush
            dataKey="t"
            height={48}
            startIndex={brush.startIndex}
            endIndex={brush.endIndex}
            tickFormatter={brushLabel}
            stroke="var(--accent)"
            fill="var(--surface)"
            onChange={(range) => onBrush(range.startIndex ?? 0, range.endIndex ?? overview.length - 1)}
          >
            <AreaChart data={overview}>
              <Area dataKey="tokens" stroke="var(--muted)" fill="var(--surface-2)" isAnimationActive={false} />
            </AreaChart>
          </Brush>
        </ComposedChart>
      )}
    </div>
  );
});
