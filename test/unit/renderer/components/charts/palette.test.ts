import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERIES_HUES, SURFACES } from '../../../../../src/renderer/src/components/charts/palette';

// WCAG relative luminance and contrast; CIELAB distance (ΔE*76) after simulating colour-blind
// vision (Viénot, Brettel and Mollon 1999, in linear RGB).
const channels = (hex: string): number[] =>
  [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
const luminance = ([r, g, b]: number[]): number => 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
const contrast = (a: string, b: string): number => {
  const [x, y] = [luminance(channels(a)), luminance(channels(b))].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};
const VISION: Record<string, number[][] | undefined> = {
  typical: undefined,
  deuteranopia: [
    [0.29275, 0.70725, 0],
    [0.29275, 0.70725, 0],
    [-0.02234, 0.02234, 1],
  ],
  protanopia: [
    [0.11238, 0.88762, 0],
    [0.11238, 0.88762, 0],
    [0.00401, -0.00401, 1],
  ],
  tritanopia: [
    [1, 0.12734, -0.12734],
    [0, 0.8739, 0.1261],
    [0, 0.8739, 0.1261],
  ],
};
const lab = (rgb: number[]): number[] => {
  const [r, g, b] = rgb as [number, number, number];
  const f = (t: number): number => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
};
const seen = (hex: string, matrix: number[][] | undefined): number[] => {
  const c = channels(hex);
  if (!matrix) return lab(c);
  return lab(matrix.map((row) => Math.min(1, Math.max(0, row[0]! * c[0]! + row[1]! * c[1]! + row[2]! * c[2]!))));
};
const closest = (colors: string[], matrix: number[][] | undefined): number => {
  let min = Infinity;
  for (let i = 0; i < colors.length; i++) {
    for (let j = i + 1; j < colors.length; j++) {
      const [a, b] = [seen(colors[i]!, matrix), seen(colors[j]!, matrix)];
      min = Math.min(min, Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!));
    }
  }
  return min;
};

describe('series palette', () => {
  it('has at least ten hues', () => {
    expect(SERIES_HUES.length).toBeGreaterThanOrEqual(10);
  });

  it('is the palette the stylesheet draws with', () => {
    const css = readFileSync(new URL('../../../../../src/renderer/src/styles.css', import.meta.url), 'utf8');
    SERIES_HUES.forEach((hue, i) => {
      expect(css).toContain(`--series-${i}: light-dark(${hue.light.toLowerCase()}, ${hue.dark.toLowerCase()});`);
    });
    expect(css).not.toContain(`--series-${SERIES_HUES.length}:`);
  });

  for (const theme of ['light', 'dark'] as const) {
    const colors = SERIES_HUES.map((hue) => hue[theme]);

    it(`stands out from the ${theme} surface (3:1, as WCAG asks of graphics)`, () => {
      for (const color of colors) expect(contrast(color, SURFACES[theme]), color).toBeGreaterThanOrEqual(3);
    });

    it(`keeps its ${theme} colours apart, for typical and colour-blind vision`, () => {
      expect(new Set(colors.map((c) => c.toLowerCase())).size).toBe(colors.length);
      expect(closest(colors, VISION.typical)).toBeGreaterThan(10);
      // Above a just-noticeable difference (about 2.3) for every kind of dichromacy.
      for (const kind of ['deuteranopia', 'protanopia', 'tritanopia']) {
        expect(closest(colors, VISION[kind]), kind).toBeGreaterThan(2.3);
      }
    });
  }
});
