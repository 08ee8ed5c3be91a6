import { hueColor, type Paint } from './palette';

const patternId = (prefix: string, paint: Paint): string => `${prefix}-paint-${paint.hue}-${paint.pattern}`;

/** The SVG fill of a paint: its hue, or the pattern that PaintDefs defines under this prefix. */
export const paintFill = (prefix: string, paint: Paint): string =>
  paint.pattern === 0 ? hueColor(paint.hue) : `url(#${patternId(prefix, paint)})`;

// Marks in the surface's colour over the hue, so a pattern reads in either theme.
const MARKS: Record<number, React.ReactNode> = {
  1: <path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" stroke="var(--surface)" strokeWidth={1.5} />,
  2: <circle cx={3} cy={3} r={1.3} fill="var(--surface)" />,
  3: <path d="M0,3 h6 M3,0 v6" stroke="var(--surface)" strokeWidth={1.2} />,
};

/**
 * Pattern definitions for the patterned paints (ids are document-wide, so each chart passes its
 * own prefix). Solid paints need none.
 */
export function PaintDefs({ prefix, paints }: { prefix: string; paints: Iterable<Paint> }) {
  const patterned = new Map<string, Paint>();
  for (const paint of paints) if (paint.pattern !== 0) patterned.set(patternId(prefix, paint), paint);
  if (patterned.size === 0) return null;
  return (
    <defs>
      {[...patterned].map(([id, paint]) => (
        <pattern key={id} id={id} width={6} height={6} patternUnits="userSpaceOnUse">
          <rect width={6} height={6} fill={hueColor(paint.hue)} />
          {MARKS[paint.pattern]}
        </pattern>
      ))}
    </defs>
  );
}
