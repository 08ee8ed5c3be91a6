import { describe, expect, it } from 'vitest';
import { rowsInView, scrollTopCentering } from '../../../../src/renderer/src/lib/fixed-rows';

const ROW = 33;

describe('rowsInView', () => {
  it('shows the rows under the box and the overscan on each side, the rest as padding', () => {
    const view = rowsInView({
      count: 1_000_000,
      rowHeight: ROW,
      scrollTop: 100 * ROW + 10,
      viewportHeight: 330,
      overscan: 5,
    });
    expect(view).toEqual({ first: 95, last: 115, paddingTop: 95 * ROW, paddingBottom: (1_000_000 - 116) * ROW });
    // Every row between the box's top and bottom edges is rendered.
    expect(view.first).toBeLessThanOrEqual(Math.floor((100 * ROW + 10) / ROW));
    expect(view.last).toBeGreaterThanOrEqual(Math.floor((100 * ROW + 10 + 330) / ROW));
  });

  it('stops at the ends of the list', () => {
    expect(rowsInView({ count: 40, rowHeight: ROW, scrollTop: 0, viewportHeight: 330, overscan: 15 })).toEqual({
      first: 0,
      last: 25,
      paddingTop: 0,
      paddingBottom: 14 * ROW,
    });
    expect(rowsInView({ count: 3, rowHeight: ROW, scrollTop: 0, viewportHeight: 330, overscan: 15 })).toEqual({
      first: 0,
      last: 2,
      paddingTop: 0,
      paddingBottom: 0,
    });
  });

  it('shows the first rows of a box not laid out yet, and the last of a list that shrank under the scroll', () => {
    expect(rowsInView({ count: 100, rowHeight: ROW, scrollTop: 0, viewportHeight: 0, overscan: 2 })).toMatchObject({
      first: 0,
      last: 3,
    });
    expect(rowsInView({ count: 10, rowHeight: ROW, scrollTop: 5000 * ROW, viewportHeight: 330, overscan: 2 })).toEqual({
      first: 7,
      last: 9,
      paddingTop: 7 * ROW,
      paddingBottom: 0,
    });
  });

  it('renders nothing for an empty list', () => {
    expect(rowsInView({ count: 0, rowHeight: ROW, scrollTop: 0, viewportHeight: 330, overscan: 15 })).toEqual({
      first: 0,
      last: -1,
      paddingTop: 0,
      paddingBottom: 0,
    });
  });
});

describe('scrollTopCentering', () => {
  it("puts the row's middle at the box's middle", () => {
    const top = scrollTopCentering({ index: 500, count: 1000, rowHeight: ROW, viewportHeight: 330 });
    expect(top + 330 / 2).toBe(500 * ROW + ROW / 2);
  });

  it('never scrolls before the first row or past the last', () => {
    expect(scrollTopCentering({ index: 1, count: 1000, rowHeight: ROW, viewportHeight: 330 })).toBe(0);
    expect(scrollTopCentering({ index: 999, count: 1000, rowHeight: ROW, viewportHeight: 330 })).toBe(1000 * ROW - 330);
    expect(scrollTopCentering({ index: 0, count: 2, rowHeight: ROW, viewportHeight: 330 })).toBe(0);
  });
});
