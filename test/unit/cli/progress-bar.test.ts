import { describe, expect, it } from 'vitest';
import { ProgressBar, PROGRESS_MIN_BYTES } from '../../../src/cli/progress-bar';

const MiB = 1024 * 1024;

function terminal(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, target: { isTTY, columns: 80, write: (text: string) => writes.push(text) } };
}

describe('ProgressBar', () => {
  it('redraws in place at most once per interval, and always at the end', () => {
    const { writes, target } = terminal(true);
    let now = 0;
    const bar = new ProgressBar(target, 'big.zip', 100 * 64 * 1024, { now: () => now });
    // 100 chunks over 1 second: 10 redraws a second at most, plus the final frame.
    for (let i = 0; i < 100; i++) {
      now = i * 10;
      bar.advance(64 * 1024);
    }
    expect(writes.length).toBeGreaterThanOrEqual(10);
    expect(writes.length).toBeLessThanOrEqual(11);
    expect(writes.every((frame) => frame.startsWith('\r') && !frame.includes('\n'))).toBe(true);
    expect(writes.at(-1)).toContain('100%');
    bar.finish();
    expect(writes.at(-1)).toBe('\r\x1b[2K');
  });

  it('assumes 80 columns on a terminal that reports no size', () => {
    const writes: string[] = [];
    const bar = new ProgressBar(
      { isTTY: true, columns: 0, write: (text: string) => writes.push(text) },
      'big.zip',
      10 * MiB,
    );
    bar.advance(5 * MiB);
    expect(writes).toEqual(['\rbig.zip  [###############...............]   50%  5.00 MiB / 10.0 MiB']);
  });

  it('draws nothing when stderr is not a terminal', () => {
    const { writes, target } = terminal(false);
    const bar = new ProgressBar(target, 'big.zip', 10 * MiB);
    bar.advance(10 * MiB);
    bar.finish();
    expect(writes).toEqual([]);
  });

  it('draws nothing for a small file, which is done before a bar would help', () => {
    const { writes, target } = terminal(true);
    const bar = new ProgressBar(target, 'small.zip', PROGRESS_MIN_BYTES - 1);
    bar.advance(PROGRESS_MIN_BYTES - 1);
    bar.finish();
    expect(writes).toEqual([]);
  });
});
