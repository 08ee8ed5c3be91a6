import { type Alongside, type LatencyRun, percentile, sequentialGets } from './latency';

/** How a latency row names this baseline: a p99 near it is the machine's. */
export const MACHINE_BASELINE = 'arithmetic between, p99';

/**
 * The machine's own tail, measured between a latency row's requests: a fixed piece of arithmetic
 * as long as the row's median warm-up request, timed after each measured request. On a quiet
 * machine every piece takes about as long; on these virtual machines the slowest take three to
 * six times the median (a single loop with no I/O, nothing else running), in bursts a fraction
 * of a second long. A request of that length that met such a burst could not have been faster.
 */
class ArithmeticTail implements Alongside {
  private loops = 1;
  private readonly times: number[] = [];

  warmedUp(times: readonly number[]): void {
    const median = percentile(
      [...times].sort((a, b) => a - b),
      50,
    );
    this.loops = Math.max(1, Math.round(median * loopsPerMs()));
  }

  between(): void {
    const start = performance.now();
    spin(this.loops);
    this.times.push(performance.now() - start);
  }

  p99(): number {
    return percentile(
      [...this.times].sort((a, b) => a - b),
      99,
    );
  }
}

/** A latency run beside the machine's: `machineP99` is the pieces' p99 (the row's baseline). */
export interface MachineRun extends LatencyRun {
  machineP99: number;
}

/** sequentialGets, with the machine's arithmetic timed between the measured requests. */
export async function getsBesideMachine(
  url: string,
  token: string,
  warmup: number,
  requests: number,
  budgetMs: number,
): Promise<MachineRun> {
  const machine = new ArithmeticTail();
  const run = await sequentialGets(url, token, warmup, requests, budgetMs, machine);
  return { ...run, machineP99: machine.p99() };
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
