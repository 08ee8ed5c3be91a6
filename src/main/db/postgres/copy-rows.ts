import { finished } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { Executor } from '../database';
import { quoteIdentifier } from '../quote-identifier';
import { withPgClient } from './pool-driver';

/** A value COPY's text format can carry; what BulkInserter pushes. */
export type CopyValue = string | number | bigint | null;

/**
 * Writes the rows of `params` (row-major, `columns.length` values a row) into `table` with one
 * `COPY … FROM STDIN` on the connection of `executor` (the caller's transaction). The text format
 * is what PostgreSQL parses from a text parameter, so every value means what it did as a bound
 * parameter; the rows cross the socket as one buffer, without the per-array serialization and
 * unnest of an INSERT. A failure (a constraint, a type) rejects with pg's error, as an INSERT's
 * would, and leaves the transaction aborted.
 */
export async function copyRows(
  executor: Executor,
  table: string,
  columns: readonly string[],
  params: readonly CopyValue[],
  rowCount: number,
): Promise<void> {
  const data = Buffer.from(encodeCopyText(params, columns.length, rowCount), 'utf8');
  const statement = `COPY ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) FROM STDIN`;
  await withPgClient(executor, async (client) => {
    const stream = client.query(copyFrom(statement));
    stream.end(data);
    await finished(stream);
  });
}

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * COPY's text format of the first `rowCount` rows of `params`: columns split by tabs, rows ended
 * by newlines, `\N` for null, and backslash, tab, newline and carriage return escaped.
 */
export function encodeCopyText(params: readonly CopyValue[], width: number, rowCount: number): string {
  let text = '';
  const end = rowCount * width;
  for (let at = 0; at < end; at++) {
    const value = params[at];
    if (value === null || value === undefined) text += '\\N';
    else if (typeof value === 'string') {
      text += SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c]!) : value;
    } else text += String(value);
    text += (at + 1) % width === 0 ? '\n' : '\t';
  }
  return text;
}
