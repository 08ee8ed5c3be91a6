// Mid-tone colours readable on both the light and the dark surface.
export const SERIES_COLORS = ['#3b82f6', '#f59e0b', '#10b981', '#e11d48', '#8b5cf6', '#64748b', '#0ea5e9', '#d946ef'];

export const seriesColor = (index: number): string => SERIES_COLORS[index % SERIES_COLORS.length]!;
