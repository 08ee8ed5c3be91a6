// Text for the evidence-package commands (import, export, evidence download): pure functions, so
// that what a user reads can be tested without a server or a terminal.
import type { ErrorDetail } from '../shared/api/error-codes';
import { count, plural } from './scan-format';
import { terminalSafe } from './terminal-text';

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/** `512 B`, `1.5 KiB`, `12.3 MiB`: three significant digits are enough to follow a transfer. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit: string = 'B';
  for (const next of UNITS) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(value >= 10 ? 1 : 2)} ${unit}`;
}

/** A size for a "saved" line: exact for scripts that compare, readable for people. */
export function sizeText(bytes: number): string {
  return bytes < 1024 ? `${count(bytes)} bytes` : `${formatBytes(bytes)}, ${count(bytes)} bytes`;
}

/**
 * One frame of an upload's progress bar, at most `columns` characters wide (a line that wraps
 * cannot be redrawn with `\r`): `name  [#####.....]  42%  5.12 MiB / 12.2 MiB`.
 */
export function progressLine(label: string, sent: number, total: number, columns = 80): string {
  const fraction = total > 0 ? Math.min(1, sent / total) : 1;
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const amounts = `${formatBytes(sent)} / ${formatBytes(total)}`;
  const fixed = percent.length + amounts.length + 8;
  const barWidth = Math.max(10, Math.min(30, columns - fixed - 12));
  const filled = Math.round(fraction * barWidth);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}]`;
  const room = columns - 1 - (bar.length + percent.length + amounts.length + 6);
  // A file name may hold anything a file system allows; the bar is redrawn in place with `\r`.
  const safe = terminalSafe(label);
  const name = room <= 0 ? '' : safe.length <= room ? safe : `…${safe.slice(safe.length - room + 1)}`;
  return `${name}${name ? '  ' : ''}${bar}  ${percent}  ${amounts}`.slice(0, columns - 1);
}

/**
 * What happened to one file given to `scandesk import`; also its `--json` form. `imported` and
 * `unchanged` hold the ids the scans are stored under; `ids` maps the package's ids to them (a
 * scan the importer did not own is stored under an id derived from it).
 */
export type ImportFileResult =
  | { file: string; status: 'imported'; imported: string[]; unchanged: string[]; ids: Record<string, string> }
  | {
      file: string;
      status: 'refused';
      error: { status: number; code: string; message: string; details: ErrorDetail[] };
    }
  | { file: string; status: 'failed'; error: { message: string } };

// What the server says, the file names given and the ids stored are each kept to one line.
function detailLine(detail: ErrorDetail): string {
  const name = detail.entry ?? detail.field;
  return `  - ${name ? `${terminalSafe(name)}: ` : ''}${terminalSafe(detail.message)}`;
}

/** `imported ID`, and the package's id for it when it is stored under another. */
function storedLines(outcome: 'imported' | 'unchanged', stored: readonly string[], packageIds: Map<string, string>) {
  return stored.map((id) => {
    const packageId = packageIds.get(id);
    const original = packageId !== undefined && packageId !== id ? ` (package id ${packageId})` : '';
    return terminalSafe(`  ${outcome} ${id}${original}`);
  });
}

/**
 * The lines `scandesk import` prints for one file: the outcome and the id of each scan as it is
 * stored, which is what later commands take; or each reason the server gave.
 */
export function importResultText(result: ImportFileResult): string {
  const file = terminalSafe(result.file);
  switch (result.status) {
    case 'imported': {
      const packageIds = new Map(Object.entries(result.ids).map(([packageId, stored]) => [stored, packageId]));
      return [
        `${file}: imported ${plural(result.imported.length, 'scan')}, ${count(result.unchanged.length)} unchanged`,
        ...storedLines('imported', result.imported, packageIds),
        ...storedLines('unchanged', result.unchanged, packageIds),
      ].join('\n');
    }
    case 'refused': {
      const { message, details } = result.error;
      // A detail that names nothing and only repeats the message would print the same sentence twice.
      const shown = details.filter(
        (detail) => detail.entry !== undefined || detail.field !== undefined || detail.message !== message,
      );
      return [`${file}: refused — ${terminalSafe(message)}`, ...shown.map(detailLine)].join('\n');
    }
    case 'failed':
      return `${file}: failed — ${terminalSafe(result.error.message)}`;
  }
}

export interface ImportTotals {
  files: number;
  imported: number;
  unchanged: number;
  refused: number;
  failed: number;
}

export function importTotals(results: readonly ImportFileResult[]): ImportTotals {
  const totals: ImportTotals = { files: results.length, imported: 0, unchanged: 0, refused: 0, failed: 0 };
  for (const result of results) {
    if (result.status === 'imported') {
      totals.imported += result.imported.length;
      totals.unchanged += result.unchanged.length;
    } else totals[result.status] += 1;
  }
  return totals;
}

/** The closing line: how many files, and what became of their scans. */
export function importSummaryText(totals: ImportTotals): string {
  const parts = [
    `${plural(totals.imported, 'scan')} imported`,
    `${count(totals.unchanged)} unchanged`,
    `${plural(totals.refused, 'file')} refused`,
    // A file that never reached the server is rare; naming it only then keeps the usual line short.
    ...(totals.failed > 0 ? [`${plural(totals.failed, 'file')} failed`] : []),
  ];
  return `${plural(totals.files, 'file')}: ${parts.join(', ')}`;
}
