/**
 * `npm run bench` kept from rotting: quick runs of three benchmarks (a command and a server
 * child; a load generator against two server children; sequential reads of a demo store) check
 * the table, the JSON file and the cleanup, never the timings (those belong to the benchmarks, on
 * a quiet machine).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, cleanupProcesses, makeTempDir, ROOT } from '../helpers/serve-process';

// Read from outside, as a user's script would: tests never import bench/ (lint), so the JSON
// fields this test reads and the table's columns are written out here.
interface ResultsFile {
  quick: boolean;
  benchmarks: string[];
  errors: string[];
  results: {
    benchmark: string;
    label: string;
    metric: string;
    value: number;
    baseline: { label: string } | null;
    ratio: number | null;
    target: Record<string, unknown> | null;
    status: string;
  }[];
}
const COLUMNS = ['benchmark', 'metric', 'value', 'baseline', 'ratio', 'target', 'result'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function npmBench(args: readonly string[], tmp: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    // TMPDIR: every temp dir the harness and its server children make lands here, to be counted.
    const child = spawn('npm', ['run', '--silent', 'bench', '--', ...args], {
      cwd: ROOT,
      env: childEnv({ TMPDIR: tmp }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run bench', () => {
  afterAll(cleanupProcesses);

  it('runs one benchmark quickly, prints the table and writes the JSON, leaving nothing behind', async () => {
    const tmp = makeTempDir('scandesk-bench-smoke-');
    const out = join(makeTempDir('scandesk-bench-out-'), 'latest.json');
    const run = await npmBench(['--quick', '--only', 'evidence-import', '--json', out], tmp);
    expect(run.code, run.stderr).toBe(0);

    const results = JSON.parse(readFileSync(out, 'utf8')) as ResultsFile;
    expect(results.quick).toBe(true);
    expect(results.benchmarks).toEqual(['evidence-import']);
    expect(results.errors).toEqual([]);
    // Two packages, each a throughput row and a memory row; the larger one also a list p99 during it.
    expect(results.results.map((row) => row.metric)).toEqual(['entries/s', 'MB', 'ms', 'entries/s', 'MB']);
    for (const row of results.results) {
      expect(row.benchmark).toBe('evidence-import');
      expect(row.label).toMatch(/^import [\d,]+-entry package/);
      expect(Number.isFinite(row.value) && row.value >= 0, `${row.label}: ${row.value}`).toBe(true);
      if (row.metric !== 'ms') {
        expect(row.baseline?.label).toMatch(/^unzip -p/);
        expect(row.ratio).toBeTypeOf('number');
      }
      expect(['pass', 'fail', 'info']).toContain(row.status);
    }

    const lines = run.stdout.split('\n');
    const header = lines.find((line) => line.startsWith('| benchmark'));
    expect(
      header
        ?.split('|')
        .map((cell) => cell.trim())
        .filter(Boolean),
    ).toEqual(COLUMNS);
    for (const row of results.results) {
      const line = lines.find((text) => text.startsWith(`| ${row.label} `));
      expect(line, row.label).toBeDefined();
      expect(line!.split('|')).toHaveLength(COLUMNS.length + 2);
    }
    expect(run.stdout).toMatch(/^\d+ of \d+ targets met$/m);

    // No data dir, package or spooled upload left over (tsx keeps its compile cache here too).
    expect(readdirSync(tmp).filter((name) => name.startsWith('scandesk-'))).toEqual([]);
  }, 90_000);

  // Fixed durations (2 s of load per server) plus two server starts: about 12 s, more on a busy machine.
  it('runs the submit benchmark quickly: a ratio target against the bare server, then nothing left running', async () => {
    const tmp = makeTempDir('scandesk-bench-smoke-');
    const out = join(makeTempDir('scandesk-bench-out-'), 'latest.json');
    const run = await npmBench(['--quick', '--only', 'submit', '--json', out], tmp);
    expect(run.code, run.stderr).toBe(0);

    const results = JSON.parse(readFileSync(out, 'utf8')) as ResultsFile;
    expect(results.benchmarks).toEqual(['submit']);
    expect(results.errors).toEqual([]);
    expect(results.results.map((row) => row.metric)).toEqual(['req/s', 'req/s', 'ms']);
    for (const row of results.results) {
      expect(row.value, row.label).toBeGreaterThan(0);
      expect(row.baseline?.label).toMatch(/^(bare|lean) node:http/);
      expect(row.ratio).toBeTypeOf('number');
    }
    const [throughput, againstLean] = results.results;
    for (const row of [throughput, againstLean]) {
      expect(row?.target).toMatchObject({ kind: 'min', of: 'ratio' });
      expect(['pass', 'fail']).toContain(row?.status);
    }
    expect(run.stdout).toMatch(/≥ 0\.60 × baseline/);
    expect(run.stdout).toMatch(/≥ 0\.80 × baseline/);

    expect(readdirSync(tmp).filter((name) => name.startsWith('scandesk-'))).toEqual([]);
  }, 60_000);

  // The list benchmark refuses to report unless the server's pages and totals equal the bare
  // SQL's, so this also checks the scan_counts rollup against COUNT(*) on a 50,000-scan demo store.
  it('runs the list benchmark quickly: the server answers exactly as the bare SQL does', async () => {
    const tmp = makeTempDir('scandesk-bench-smoke-');
    const out = join(makeTempDir('scandesk-bench-out-'), 'latest.json');
    const run = await npmBench(['--quick', '--only', 'list', '--json', out], tmp);
    expect(run.code, run.stderr).toBe(0);

    const results = JSON.parse(readFileSync(out, 'utf8')) as ResultsFile;
    expect(results.errors).toEqual([]);
    expect(results.results.map((row) => row.label)).toEqual(
      ['first page', 'offset=45,000', 'since 7 days + tool=ChatGPT'].flatMap((query) =>
        ['p50', 'p99'].map((stat) => `list 50,000 scans: ${query} ${stat}`),
      ),
    );
    for (const row of results.results) {
      expect(row.value, row.label).toBeGreaterThan(0);
      expect(row.baseline?.label).toMatch(/^bare SQL p(50|99)$/);
    }
    expect(results.results.at(-1)?.target).toMatchObject({ kind: 'max', limit: 10 });
    expect(readdirSync(tmp).filter((name) => name.startsWith('scandesk-'))).toEqual([]);
  }, 90_000);

  it('names the benchmarks there are when asked for one that is not', async () => {
    const run = await npmBench(['--only', 'no-such-benchmark'], makeTempDir('scandesk-bench-smoke-'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown benchmark no-such-benchmark; there are: .*evidence-export/);
  });
});
