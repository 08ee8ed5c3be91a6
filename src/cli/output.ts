/** Renders rows as a plain aligned table, for people; `--json` prints the API's JSON instead. */
export function table(headers: string[], rows: (string | number)[][], options: { right?: number[] } = {}): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
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
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${value}`.trimEnd()).join('\n');
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
