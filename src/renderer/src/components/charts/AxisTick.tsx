import type { BaseTickContentProps } from 'recharts';

// The offsets recharts' Text gives each vertical anchor.
const DY = { start: '0.71em', middle: '0.355em', end: '0' } as const;

/**
 * An axis label as one line of SVG text. recharts' own label is handed the axis's width, and so
 * measures every word of every label in the document to wrap it, at each render; ours never wrap.
 */
export function AxisTick({
  x,
  y,
  className,
  fill,
  textAnchor,
  verticalAnchor,
  index,
  payload,
  tickFormatter,
}: BaseTickContentProps) {
  const text = tickFormatter ? tickFormatter(payload.value, index) : String(payload.value);
  return (
    <text x={x} y={y} className={className} fill={fill} textAnchor={textAnchor}>
      <tspan x={x} dy={DY[verticalAnchor]}>
        {text}
      </tspan>
    </text>
  );
}
