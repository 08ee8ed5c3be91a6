import { terminalJson, terminalLines, terminalSafe } from './terminal-text';

// Every byte the CLI prints goes through this file (lint refuses process.stdout.write and
// process.stderr.write elsewhere in src/cli), and so through terminal-text.ts.

/** Renders rows as a plain aligned table, for people; `--json` prints the API's JSON instead. */
export function table(headers: string[], rows: (string | number)[][], options: { right?: number[] } = {}): string {
  // Each cell escaped first: one value stays in its cell, and widths count what is printed.
  const cells = [headers, ...rows.map((row) => row.map((cell) => terminalSafe(String(cell))))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  // Numbers line up on their last digit when right-aligned, so magnitudes compare at a glance.
  const right = new Set(options.right ?? []);
  return cells
    .map((row) =>
      row
        .map((cell, column) =>
          right.has(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Renders `label  value` lines with the values aligned: one record, read top to bottom. */
export function fields(pairs: [label: string, value: string | number][]): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${terminalSafe(String(value))}`.trimEnd()).join('\n');
}

export function printJson(value: unknown): void {
  process.stdout.write(`${terminalJson(value)}\n`);
}

/** Writes lines for people to stdout; unsafe characters other than line breaks are escaped. */
export function writeOut(text: string): void {
  process.stdout.write(terminalLines(text));
}

/** The same for stderr: errors, warnings and notes. */
export function writeErr(text: string): void {
  process.stderr.write(terminalLines(text));
}
