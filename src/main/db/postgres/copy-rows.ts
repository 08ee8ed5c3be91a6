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
  const rows = encodeCopyRows(params, columns.length, rowCount, spare.pop());
  const statement = `COPY ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) FROM STDIN`;
  await withPgClient(executor, async (client) => {
    const stream = client.query(copyFrom(statement));
    stream.end(rows.bytes);
    await finished(stream);
  });
  // The server has answered, so the socket is done with the buffer; after a failure it is left
  // to the collector.
  if (spare.length < SPARE_BUFFERS) spare.push(rows.buffer);
}

/**
 * Encode buffers free for the next COPY. A fresh buffer per COPY lived outside the JS heap until
 * a full collection, which V8 starts only once such memory has grown by about 64 MB: a
 * million-entry import's peak. BulkInserter keeps one chunk in flight while it encodes the next,
 * and an import's staged steps overlap, so a few cover every writer.
 */
const SPARE_BUFFERS = 4;
const spare: Buffer[] = [];
const FIRST_BUFFER_BYTES = 64 * 1024;

/** Bytes of COPY's text format, and the buffer they are the start of (to reuse once sent). */
export interface CopyRows {
  bytes: Buffer;
  buffer: Buffer;
}

const TAB = 0x09;
const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * COPY's text format of the first `rowCount` rows of `params`: columns split by tabs, rows ended
 * by newlines, `\N` for null, and backslash, tab, newline and carriage return escaped. Written
 * straight into `buffer` (a larger one replaces it when it is full), without building a string.
 */
export function encodeCopyRows(
  params: readonly CopyValue[],
  width: number,
  rowCount: number,
  buffer: Buffer = Buffer.allocUnsafeSlow(FIRST_BUFFER_BYTES),
): CopyRows {
  let out = buffer;
  let at = 0;
  /** Room for `bytes` more, keeping what is written. */
  const room = (bytes: number): void => {
    if (at + bytes <= out.length) return;
    const larger = Buffer.allocUnsafeSlow(Math.max(out.length * 2, at + bytes));
    out.copy(larger, 0, 0, at);
    out = larger;
  };
  const end = rowCount * width;
  for (let i = 0; i < end; i++) {
    const value = params[i];
    if (value === null || value === undefined) {
      room(3);
      out[at++] = BACKSLASH;
      out[at++] = 0x4e;
    } else if (typeof value === 'string') {
      // A UTF-16 unit is at most 3 bytes of UTF-8, an escaped character 2.
      room(value.length * 3 + 1);
      at = writeString(out, at, value);
    } else if (typeof value === 'number' && Number.isSafeInteger(value)) {
      room(18);
      at = writeInteger(out, at, value);
    } else {
      const digits = String(value);
      room(digits.length + 1);
      at += out.write(digits, at, 'latin1');
    }
    out[at++] = (i + 1) % width === 0 ? NEWLINE : TAB;
  }
  return { bytes: out.subarray(0, at), buffer: out };
}

/** `value` escaped at `at`, as bytes; the buffer has room for it. Returns where it ends. */
function writeString(out: Buffer, at: number, value: string): number {
  const start = at;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x80) {
      // Beyond ASCII: encoded by Node, from the start of the value.
      const text = value.replace(SPECIAL_ALL, (s) => ESCAPES[s]!);
      return start + out.write(text, start, 'utf8');
    }
    if (c >= 0x20 && c !== BACKSLASH) {
      out[at++] = c;
      continue;
    }
    const letter = c === BACKSLASH ? BACKSLASH : c === TAB ? 0x74 : c === NEWLINE ? 0x6e : c === 0x0d ? 0x72 : 0;
    if (letter === 0) out[at++] = c;
    else {
      out[at++] = BACKSLASH;
      out[at++] = letter;
    }
  }
  return at;
}

/** A safe integer's decimal digits at `at`; the buffer has room for them. Returns where they end. */
function writeInteger(out: Buffer, at: number, value: number): number {
  if (value < 0) {
    out[at++] = 0x2d;
    value = -value;
  }
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  for (let i = at + digits - 1; i >= at; i--) {
    out[i] = 0x30 + (value % 10);
    value = Math.floor(value / 10);
  }
  return at + digits;
}
