import { describe, expect, it } from 'vitest';
import { PATTERNS, SERIES_HUES, type Paint } from '../../../../../src/renderer/src/components/charts/palette';
import { assignToolPaints, chartToolPaints } from '../../../../../src/renderer/src/components/charts/tool-paints';

const key = (paint: Paint | undefined): string => `${paint?.hue}/${paint?.pattern}`;
const DEMO = ['AutoGPT', 'ChatGPT', 'Claude', 'Codeium', 'Cursor', 'Devin', 'Gemini', 'GitHub Copilot'];
const many = (n: number): string[] => Array.from({ length: n }, (_, i) => `tool-${i}`);

describe('assignToolPaints', () => {
  it('gives the demo tools, once all shared two hues, a hue each', () => {
    const paints = assignToolPaints(DEMO);
    expect(new Set(DEMO.map((name) => key(paints.get(name)))).size).toBe(DEMO.length);
    for (const name of DEMO) expect(paints.get(name)!.pattern).toBe(0);
  });

  it('depends on the set of tools, not on their order or repeats', () => {
    const a = assignToolPaints(DEMO);
    const b = assignToolPaints([...DEMO].reverse().concat(DEMO));
    for (const name of DEMO) expect(b.get(name)).toEqual(a.get(name));
  });

  it('keeps every tool apart up to hues × patterns, patterns only once the hues are used', () => {
    const hues = SERIES_HUES.length;
    const solid = assignToolPaints(many(hues));
    expect([...solid.values()].every((p) => p.pattern === 0)).toBe(true);
    expect(new Set([...solid.values()].map(key)).size).toBe(hues);

    const most = hues * PATTERNS.length;
    const paints = assignToolPaints(many(most));
    expect(new Set([...paints.values()].map(key)).size).toBe(most);
    expect([...paints.values()].filter((p) => p.pattern > 0)).toHaveLength(most - hues);
  });

  it('moves few tools when a new one arrives, unlike numbering the sorted names', () => {
    const before = assignToolPaints(DEMO);
    const after = assignToolPaints([...DEMO, 'Aider']);
    const moved = DEMO.filter((name) => key(before.get(name)) !== key(after.get(name)));
    // Numbering sorted names would move all eight (Aider sorts first).
    expect(moved.length).toBeLessThanOrEqual(2);
  });
});

describe('chartToolPaints', () => {
  it('gives a tool the same paint in every chart and range, whatever else is drawn', () => {
    const store = [...DEMO, 'Windsurf', 'Perplexity'];
    const wide = chartToolPaints(store, store);
    const narrow = chartToolPaints(store, ['Claude', 'Gemini']);
    const other = chartToolPaints(store, ['Claude', 'Cursor', 'AutoGPT']);
    expect(narrow.get('Claude')).toEqual(wide.get('Claude'));
    expect(other.get('Claude')).toEqual(wide.get('Claude'));
    expect(narrow.get('Gemini')).toEqual(wide.get('Gemini'));
  });

  it('paints a tool the store list does not have yet apart from the chart’s others', () => {
    const paints = chartToolPaints(DEMO, [...DEMO, 'brand-new']);
    expect(new Set([...paints.values()].map(key)).size).toBe(DEMO.length + 1);
  });

  it('keeps one chart’s tools apart even past every hue and pattern', () => {
    const store = many(SERIES_HUES.length * PATTERNS.length * 3);
    // Tools whose store paints coincide (the paints repeat past 48 tools).
    const all = assignToolPaints(store);
    const first = key(all.get(store[0]!));
    const alike = store.filter((name) => key(all.get(name)) === first).slice(0, 3);
    expect(alike.length).toBeGreaterThan(1);
    const chart = [...alike, ...store.slice(100, 107)];
    const paints = chartToolPaints(store, chart);
    expect(new Set(chart.map((name) => key(paints.get(name)))).size).toBe(chart.length);
  });
});
