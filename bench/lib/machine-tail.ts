import { percentile } from './latency';

/**
 * The machine's own tail, for a latency row measured in the same minute: a fixed piece of
 * arithmetic, as long as the row's median request, timed as many times as the row's requests.
 * On a quiet machine every piece takes about as long; on these virtual machines the slowest take
 * three or four times the median (a single loop with no I/O, nothing else running), and a request
 * of that length cannot have a better p99 than the arithmetic had.
 */
export function arithmeticTail(pieceMs: number, pieces: number): { p50: number; p99: number } {
  const perMs = loopsPerMs();
  const loops = Math.max(1, Math.round(pieceMs * perMs));
  const times: number[] = [];
  for (let i = 0; i < pieces; i++) {
    const start = performance.now();
    spin(loops);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** The loop's speed at its best of a few tries: a stalled try must not make the pieces short. */
function loopsPerMs(): number {
  const loops = 200_000;
  let best = Infinity;
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    spin(loops);
    best = Math.min(best, performance.now() - start);
  }
  return loops / Math.max(best, 0.001);
}

// The sum is checked so that the loop cannot be optimized away.
function spin(loops: number): void {
  let sum = 0;
  for (let i = 0; i < loops; i++) sum += i % 7;
  if (sum < 0) throw new Error('a sum of remainders below zero');
}
