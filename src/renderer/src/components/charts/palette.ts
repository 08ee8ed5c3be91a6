/**
 * Series colours. Each is a CSS custom property (styles.css) holding a light and a dark variant
 * of one hue, so a series keeps its hue in both themes while meeting 3:1 against that theme's
 * surface. The hues are Okabe–Ito's and Paul Tol's "muted" set, chosen to stay apart for
 * red–green and blue–yellow colour blindness; the variants are listed here for tests.
 */
export const SERIES_HUES = [
  { light: '#0072B2', dark: '#56B4E9' }, // blue
  { light: '#B86E00', dark: '#E69F00' }, // orange
  { light: '#009E73', dark: '#009E73' }, // bluish green
  { light: '#D55E00', dark: '#D55E00' }, // vermillion
  { light: '#CC79A7', dark: '#CC79A7' }, // reddish purple
  { light: '#332288', dark: '#9988DD' }, // indigo
  { light: '#117733', dark: '#55BB66' }, // green
  { light: '#882255', dark: '#CC6677' }, // wine
  { light: '#AA4499', dark: '#C65FB5' }, // purple
  { light: '#2A8C7E', dark: '#44AA99' }, // teal
  { light: '#808020', dark: '#999933' }, // olive
  { light: '#6A8FC8', dark: '#88CCEE' }, // sky
] as const;

/** Surfaces the series are drawn on (styles.css `--surface`), to check contrast against. */
export const SURFACES = { light: '#ffffff', dark: '#1a2029' } as const;

/** Fills beyond a plain hue, for more series than hues: the pattern's index in a paint. */
export const PATTERNS = ['solid', 'stripes', 'dots', 'crosshatch'] as const;

/** A hue (index into SERIES_HUES) and a pattern (index into PATTERNS). */
export interface Paint {
  hue: number;
  pattern: number;
}

export const hueColor = (hue: number): string => `var(--series-${hue % SERIES_HUES.length})`;

/** What is no one series ("other", the small ones summed): neutral grey. */
export const OTHER_COLOR = 'var(--series-other)';

/** A paint by position, for series that are not tools (scans and violations). */
export const paintAt = (index: number): Paint => ({ hue: index % SERIES_HUES.length, pattern: 0 });
