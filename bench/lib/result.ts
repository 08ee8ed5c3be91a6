import type { Baseline, Result, Status, Target } from './types';

export interface ResultInput {
  benchmark: string;
  label: string;
  metric: string;
  value: number;
  baseline?: Baseline | null;
  target?: Target | null;
  note?: string | undefined;
}

export function judge(value: number, target: Target | null, ratio: number | null = null): Status {
  if (!target) return 'info';
  // No baseline, no ratio: a ratio target cannot have been met.
  if (target.of === 'ratio' && ratio === null) return 'fail';
  const judged = target.of === 'ratio' ? ratio! : value;
  const met = target.kind === 'max' ? judged < target.limit : judged >= target.limit;
  return met ? 'pass' : 'fail';
}

/** A row with its ratio and status worked out, so that every benchmark computes them the same way. */
export function result(input: ResultInput): Result {
  const baseline = input.baseline ?? null;
  const target = input.target ?? null;
  const ratio = baseline && baseline.value > 0 ? input.value / baseline.value : null;
  return {
    benchmark: input.benchmark,
    label: input.label,
    metric: input.metric,
    value: input.value,
    baseline,
    ratio,
    target,
    status: judge(input.value, target, ratio),
    ...(input.note === undefined ? {} : { note: input.note }),
  };
}
