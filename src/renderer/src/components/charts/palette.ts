// Mid-tone colours readable on both the light and the dark surface.
export const SERIES_COLORS = ['#3b82f6', '#f59e0b', '#10b981', '#e11d48', '#8b5cf6', '#64748b', '#0ea5e9', '#d946ef'];

export const seriesColor = (index: number): string => SERIES_COLORS[index % SERIES_COLORS.length]!;

/**
 * A series' colour from its name alone (FNV-1a into the palette), so that one tool keeps one
 * colour in every chart and range, whatever else is drawn beside it.
 */
export function colorOf(name: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return seriesColor((hash >>> 0) % SERIES_COLORS.length);
}
