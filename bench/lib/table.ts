import { formatNumber } from './format';
import type { Result, Target } from './types';

export const COLUMNS = ['benchmark', 'metric', 'value', 'baseline', 'ratio', 'target', 'result'] as const;

const NUMERIC = new Set<string>(['value', 'ratio']);

export function formatTarget(target: Target | null): string {
  if (!target) return '(info)';
  if (target.of === 'ratio') return `${target.kind === 'max' ? '<' : '≥'} ${target.limit.toFixed(2)} ${target.unit}`;
  return `${target.kind === 'max' ? '<' : '≥'} ${formatNumber(target.limit)} ${target.unit}`;
}

function cells(row: Result): string[] {
  return [
    row.label,
    row.metric,
    formatNumber(row.value),
    row.baseline ? `${row.baseline.label}: ${formatNumber(row.baseline.value)}` : '—',
    row.ratio === null ? '—' : row.ratio.toFixed(2),
    formatTarget(row.target),
    // Upper case so that a missed target stands out in a column of "pass".
    row.status === 'info' ? '' : row.status === 'pass' ? 'pass' : 'FAIL',
  ];
}

/** A Markdown table: readable in a terminal and pasteable into docs/benchmarks.md as is. */
export function renderTable(rows: readonly Result[]): string {
  const body = rows.map(cells);
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...body.map((line) => [...line[i]!].length)));
  const pad = (text: string, i: number): string => {
    const fill = ' '.repeat(widths[i]! - [...text].length);
    return NUMERIC.has(COLUMNS[i]!) ? fill + text : text + fill;
  };
  const line = (values: readonly string[]): string => `| ${values.map(pad).join(' | ')} |`;
  const rule = `|${widths.map((width, i) => (NUMERIC.has(COLUMNS[i]!) ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  return [line(COLUMNS), rule, ...body.map(line)].join('\n');
}

/** The lines under the table: every missed target named, so that a miss cannot hide in the table. */
export function renderSummary(rows: readonly Result[], errors: readonly string[]): string {
  const judged = rows.filter((row) => row.status !== 'info');
  const missed = judged.filter((row) => row.status === 'fail');
  const lines = [`${judged.length - missed.length} of ${judged.length} targets met`];
  for (const row of missed) {
    const got =
      row.target?.of === 'ratio' ? `ratio ${row.ratio?.toFixed(2) ?? '—'}` : `${formatNumber(row.value)} ${row.metric}`;
    lines.push(`TARGET MISSED: ${row.label}: ${got}, target ${formatTarget(row.target)}`);
  }
  for (const error of errors) lines.push(`BENCHMARK FAILED: ${error}`);
  return lines.join('\n');
}
