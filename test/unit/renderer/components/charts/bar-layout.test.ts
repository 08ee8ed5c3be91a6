import { describe, expect, it } from 'vitest';
import { BAR_LAYOUT, barLayout, fitLabel } from '../../../../../src/renderer/src/components/charts/bar-layout';

describe('barLayout', () => {
  const layout = barLayout({ width: 500, count: 4, ticks: [0, 50, 100], labelWidth: 140 });

  it('puts the plot right of the labels, above the axis, and grows a band per value', () => {
    expect(layout.height).toBe(4 * BAR_LAYOUT.band + 40);
    expect(layout.plot).toEqual({
      left: 140,
      right: 500 - BAR_LAYOUT.right,
      top: BAR_LAYOUT.top,
      bottom: layout.height - BAR_LAYOUT.axis,
    });
    expect(barLayout({ width: 500, count: 1, ticks: [0, 1], labelWidth: 140 }).height).toBe(BAR_LAYOUT.minHeight);
  });

  it('takes narrower bands and a lower least height for a chart that must stay small', () => {
    expect(barLayout({ width: 500, count: 2, ticks: [0, 1], labelWidth: 72, band: 26, minHeight: 80 }).height).toBe(
      2 * 26 + 40,
    );
    expect(barLayout({ width: 500, count: 1, ticks: [0, 1], labelWidth: 72, band: 26, minHeight: 80 }).height).toBe(80);
  });

  it('stacks the bands top to bottom, each bar centred in its band', () => {
    const band = (layout.plot.bottom - layout.plot.top) / 4;
    expect(layout.band).toBe(band);
    expect(layout.bands.map((b) => b.middle)).toEqual([0, 1, 2, 3].map((i) => layout.plot.top + band * (i + 0.5)));
    for (const b of layout.bands) expect(b.top + b.thickness / 2).toBeCloseTo(b.middle);
    expect(layout.bands[0]!.thickness).toBeCloseTo(band * BAR_LAYOUT.fill);
  });

  it('scales a value against the last tick, the plot full at that tick', () => {
    const span = layout.plot.right - layout.plot.left;
    expect(layout.length(100)).toBe(span);
    expect(layout.length(25)).toBe(span / 4);
    expect(layout.length(0)).toBe(0);
    expect(layout.tickX).toEqual([140, 140 + span / 2, 140 + span]);
  });

  it('draws nothing of a chart not yet laid out or without a scale', () => {
    const unmeasured = barLayout({ width: 0, count: 2, ticks: [0, 10], labelWidth: 140 });
    expect(unmeasured.length(10)).toBe(0);
    expect(barLayout({ width: 500, count: 0, ticks: [], labelWidth: 140 }).bands).toEqual([]);
    expect(barLayout({ width: 500, count: 1, ticks: [0], labelWidth: 140 }).length(5)).toBe(0);
  });
});

describe('fitLabel', () => {
  it('keeps a name that fits and cuts a long one with an ellipsis to the label width', () => {
    expect(fitLabel('ChatGPT', 140)).toBe('ChatGPT');
    const cut = fitLabel('a-rule-name-far-too-long-for-the-axis', 140);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBe(Math.floor((140 - BAR_LAYOUT.labelGap) / BAR_LAYOUT.charPx));
  });
});
