import type { Load } from './submit-load';

/** One side of a comparison: `measure` loads it for some seconds and says how it did. */
export interface Contender<K extends string> {
  kind: K;
  measure(seconds: number): Promise<Load>;
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/**
 * Loads the contenders in turns: round after round, each gets `roundS` seconds, the order
 * rotating. This machine's speed drifts by up to 2× within a minute; contenders measured one
 * after the other compared its phases as much as themselves, while turns give every contender a
 * share of each phase (docs/benchmarks.md has the numbers).
 * Each one's rate is over all its rounds; its p99 the median of theirs.
 */
export async function measureInTurns<K extends string>(
  contenders: readonly Contender<K>[],
  rounds: number,
  roundS: number,
): Promise<Record<K, Load>> {
  const measured = new Map<K, { completed: number; seconds: number; p99s: number[] }>(
    contenders.map(({ kind }) => [kind, { completed: 0, seconds: 0, p99s: [] }]),
  );
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < contenders.length; turn++) {
      const contender = contenders[(round + turn) % contenders.length]!;
      const run = await contender.measure(roundS);
      const total = measured.get(contender.kind)!;
      total.completed += run.completed;
      total.seconds += run.completed / run.requestsPerSecond;
      total.p99s.push(run.p99);
    }
  }
  const loads = [...measured].map(([kind, { completed, seconds, p99s }]): [K, Load] => [
    kind,
    { completed, requestsPerSecond: completed / seconds, p99: median(p99s) },
  ]);
  return Object.fromEntries(loads) as Record<K, Load>;
}
