import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { Result } from './types';

export interface ResultsFile {
  generated_at: string;
  quick: boolean;
  /** The benchmarks that ran, in order. */
  benchmarks: string[];
  machine: { platform: string; arch: string; node: string; cpus: number; cpu_model: string; memory_bytes: number };
  results: Result[];
  /** Benchmarks that failed to run, with the reason. */
  errors: string[];
}

export function resultsFile(
  quick: boolean,
  benchmarks: readonly string[],
  results: readonly Result[],
  errors: readonly string[],
): ResultsFile {
  const cpu = cpus();
  return {
    generated_at: new Date().toISOString(),
    quick,
    benchmarks: [...benchmarks],
    machine: {
      platform: process.platform,
      arch: process.arch,
      node: process.version,
      cpus: cpu.length,
      cpu_model: cpu[0]?.model ?? 'unknown',
      memory_bytes: totalmem(),
    },
    results: [...results],
    errors: [...errors],
  };
}

export function writeResults(file: string, results: ResultsFile): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
