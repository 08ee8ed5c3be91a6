/**
 * Where a horizontal bar chart's parts go, in px: a row per named value (label left, bar right of
 * it, its length proportional to the value over the axis's last tick) and a count axis below.
 */
export interface BarLayoutOptions {
  /** The chart's width; the bars get what the labels and the right margin leave. */
  width: number;
  /** One band per value, laid out top to bottom. */
  count: number;
  /** The count axis's ticks, from 0 up: the last one is the full length. */
  ticks: readonly number[];
  labelWidth: number;
  /** Px per value and the least height, for a chart that must stay small (BAR_LAYOUT's otherwise). */
  band?: number;
  minHeight?: number;
}

export const BAR_LAYOUT = {
  band: 30,
  /** Space for the count axis's line and tick labels. */
  axis: 30,
  top: 4,
  right: 16,
  minHeight: 120,
  /** The share of a band its bar fills, the rest a gap. */
  fill: 0.8,
  /** Room between a label's end and the plot. */
  labelGap: 8,
  /** Roughly how wide a label's character is at the axis's font size, to shorten long names. */
  charPx: 7,
} as const;

export interface BarLayout {
  height: number;
  plot: { left: number; right: number; top: number; bottom: number };
  /** Each value's share of the plot's height. */
  band: number;
  /** Per value: its band's centre line, and its bar's top and thickness. */
  bands: { middle: number; top: number; thickness: number }[];
  /** Per tick: its x. */
  tickX: number[];
  /** The length of a bar of `value`. */
  length: (value: number) => number;
}

export function barLayout({
  width,
  count,
  ticks,
  labelWidth,
  band: bandPx = BAR_LAYOUT.band,
  minHeight = BAR_LAYOUT.minHeight,
}: BarLayoutOptions): BarLayout {
  // The bands, the axis below them, and a margin above the first.
  const height = Math.max(minHeight, count * bandPx + BAR_LAYOUT.axis + 10);
  const plot = {
    left: labelWidth,
    right: Math.max(labelWidth, width - BAR_LAYOUT.right),
    top: BAR_LAYOUT.top,
    bottom: height - BAR_LAYOUT.axis,
  };
  const band = count > 0 ? (plot.bottom - plot.top) / count : 0;
  const thickness = band * BAR_LAYOUT.fill;
  const bands = Array.from({ length: count }, (_, i) => ({
    middle: plot.top + band * (i + 0.5),
    top: plot.top + band * i + (band - thickness) / 2,
    thickness,
  }));
  const full = ticks.at(-1) ?? 0;
  const span = plot.right - plot.left;
  const length = (value: number): number => (full > 0 ? (Math.max(0, Math.min(value, full)) / full) * span : 0);
  return { height, plot, band, bands, tickX: ticks.map((tick) => plot.left + length(tick)), length };
}

/** A label cut to what fits in `labelWidth` (with an ellipsis); the whole name stays in its title. */
export function fitLabel(name: string, labelWidth: number): string {
  const chars = Math.max(1, Math.floor((labelWidth - BAR_LAYOUT.labelGap) / BAR_LAYOUT.charPx));
  return name.length <= chars ? name : `${name.slice(0, chars - 1)}…`;
}
