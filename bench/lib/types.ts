import type { Scratch } from './scratch';

/** A target a value must meet; a row without one is information only. */
export interface Target {
  /** `max`: the value must stay below `limit`; `min`: it must reach it. */
  kind: 'max' | 'min';
  limit: number;
  /** Printed after the limit, e.g. `MB` in `< 150 MB`. */
  unit: string;
  /**
   * What the limit applies to: the value (default), or the ratio to the baseline, for targets
   * that only mean something relative to this machine (e.g. throughput against a bare server).
   */
  of?: 'value' | 'ratio';
}

/** A baseline measured in the same run on the same machine, by a well-known tool. */
export interface Baseline {
  /** What was measured, e.g. `zip -q`. */
  label: string;
  value: number;
}

export type Status = 'pass' | 'fail' | 'info';

/** One row of the table (and of latest.json). */
export interface Result {
  /** The benchmark (file) that produced the row, e.g. `evidence-export`. */
  benchmark: string;
  /** What the row measures, e.g. `export 1,000,000-entry timeline`. */
  label: string;
  /** The unit, e.g. `MB/s`. */
  metric: string;
  value: number;
  baseline: Baseline | null;
  /** value ÷ baseline.value; null without a baseline. */
  ratio: number | null;
  target: Target | null;
  status: Status;
  /** Anything worth knowing to read the number, e.g. how peak memory was sampled. */
  note?: string | undefined;
}

export type BenchDatabase = 'sqlite' | 'postgres';

export interface BenchContext {
  /** Small sizes: a smoke run that checks the harness, not the speed. */
  quick: boolean;
  /** `--database`: which store the run measures; each benchmark says which it runs on. */
  database: BenchDatabase;
  /** `--size`: the scans of the store `scale` measures; undefined leaves it to the benchmark. */
  size: number | undefined;
  /**
   * `--keep DIR`: where stores that take minutes to build are kept between runs (and, on
   * PostgreSQL, the run's cluster); undefined builds them in temp dirs removed at the end.
   */
  keepDir: string | undefined;
  /** With `--database postgres`, the admin URL of the run's cluster. */
  adminUrl: string | undefined;
  /**
   * The store of a new data dir in this run: undefined (its SQLite file), or with `--database
   * postgres` the URL of a new database on the run's private cluster.
   */
  storeFor(label: string): Promise<string | undefined>;
  /** Temp dirs and child processes, all removed/stopped when the run ends, whatever happens. */
  scratch: Scratch;
  /**
   * A value computed once per run and shared between benchmarks (e.g. a data dir that takes
   * seconds to build), whichever benchmark asks first.
   */
  memo<T>(key: string, create: () => Promise<T>): Promise<T>;
  /** Progress for the person watching; goes to stderr so stdout stays the table. */
  log(message: string): void;
}

export interface Benchmark {
  /** kebab-case, the file name without `.bench.ts`; what `--only` takes. */
  name: string;
  description: string;
  /** The stores it measures (default: SQLite only). */
  databases?: readonly BenchDatabase[];
  run(context: BenchContext): Promise<Result[]>;
}

/** Typing aid for a benchmark file's default export. */
export const defineBenchmark = (benchmark: Benchmark): Benchmark => benchmark;

export function isBenchmark(value: unknown): value is Benchmark {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof Benchmark, unknown>>;
  return (
    typeof candidate.name === 'string' &&
    typeof candidate.description === 'string' &&
    typeof candidate.run === 'function'
  );
}
