import { describe, expect, it } from 'vitest';
import { mayQueue } from '../../../src/main/live/backpressure';

describe('mayQueue', () => {
  it('takes bytes up to the limit in all, and never beyond', () => {
    expect(mayQueue(100, 900, 1000)).toBe(true);
    expect(mayQueue(100, 901, 1000)).toBe(false);
    expect(mayQueue(1000, 1, 1000)).toBe(false);
  });

  it('takes any one event on a stream with nothing waiting', () => {
    expect(mayQueue(0, 5000, 1000)).toBe(true);
  });
});
