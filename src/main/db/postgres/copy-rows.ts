import { finished } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { Executor } from '../database';
import { quoteIdentifier } from '../quote-identifier';
import { withPgClient } from './pool-driver';

/** A value COPY's text format can carry; what BulkInserter pushes. */
export type CopyValue = string | number | bigint | null;

/**
 * Rows written into `table` a chunk at a time, each chunk one `COPY … FROM STDIN` on the
 * connection of `executor` (the caller's transaction). The text format is what PostgreSQL parses
 * from a text parameter, so every value means what it did as a bound parameter; a chunk crosses
 * the socket as one buffer. A failure (a constraint, a type) rejects with pg's error, as an
 * INSERT's would, and leaves the transaction aborted.
 */
export class CopyChunks {
  private readonly statement: string;
  private current: CopyText | undefined;

  constructor(
    private readonly executor: Executor,
    table: string,
    columns: readonly string[],
  ) {
    this.statement = copyFromStatement(table, columns);
  }

  /** Where the chunk's rows are written, a value at a time in the columns' order. */
  get text(): CopyText {
    return (this.current ??= new CopyText(spare.pop()));
  }

  /**
   * Sends the rows written so far as one COPY, and starts the next chunk: the caller may write
   * it while this one is in flight (pg runs the next COPY once this one is done).
   */
  send(): Promise<void> {
    const text = this.text;
    this.current = undefined;
    return sendCopy(this.executor, this.statement, text);
  }
}

/** `COPY table (columns) FROM STDIN`, identifiers quoted. */
export const copyFromStatement = (table: string, columns: readonly string[]): string =>
  `COPY ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) FROM STDIN`;

async function sendCopy(executor: Executor, statement: string, text: CopyText): Promise<void> {
  await withPgClient(executor, async (client) => {
    const stream = client.query(copyFrom(statement));
    stream.end(text.bytes());
    await finished(stream);
  });
  // The server has answered, so the socket is done with the buffer; after a failure it is left
  // to the collector.
  if (spare.length < SPARE_BUFFERS && text.buffer.length <= SPARE_MAX_BYTES) spare.push(text.buffer);
}

/**
 * Encode buffers free for the next COPY. A fresh buffer per COPY lived outside the JS heap until
 * a full collection, which V8 starts only once such memory has grown by about 64 MB: a
 * million-entry import's peak. A writer keeps one chunk in flight while it writes the next, and
 * an import's staged steps overlap, so a few cover them.
 */
const SPARE_BUFFERS = 4;
/** A larger buffer (a chunk of long rows) is not kept for the next COPY. */
const SPARE_MAX_BYTES = 1024 * 1024;
const spare: Buffer[] = [];
const FIRST_BUFFER_BYTES = 64 * 1024;

const TAB = 0x09;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BACKSLASH = 0x5c;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * Rows in COPY's text format, written value by value straight into a buffer (a larger one
 * replaces it when it is full), with no string built on the way: columns split by tabs, rows
 * ended by newlines, `\N` for null, and backslash, tab, newline and carriage return escaped.
 */
export class CopyText {
  private at = 0;

  constructor(public buffer: Buffer = Buffer.allocUnsafeSlow(FIRST_BUFFER_BYTES)) {}

  /** Appends `value`, then the end of its row if `last`, else a tab. */
  value(value: CopyValue, last: boolean): void {
    // An optional column left out of a row (undefined) is null, as a bound parameter would be.
    if (value === null || value === undefined) {
      this.room(3);
      this.buffer[this.at++] = BACKSLASH;
      this.buffer[this.at++] = 0x4e;
    } else if (typeof value === 'string') {
      // A UTF-16 unit is at most 3 bytes of UTF-8, an escaped character 2.
      this.room(value.length * 3 + 1);
      this.at = writeString(this.buffer, this.at, value);
    } else if (typeof value === 'number' && Number.isSafeInteger(value)) {
      this.room(18);
      this.at = writeInteger(this.buffer, this.at, value);
    } else {
      const digits = String(value);
      this.room(digits.length + 1);
      this.at += this.buffer.write(digits, this.at, 'latin1');
    }
    this.buffer[this.at++] = last ? NEWLINE : TAB;
  }

  /** Bytes written so far. */
  get size(): number {
    return this.at;
  }

  /** What was written: the start of `buffer`. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.at);
  }

  /** Room for `bytes` more, keeping what is written. */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(larger, 0, 0, this.at);
    this.buffer = larger;
  }
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
    const letter =
      c === BACKSLASH ? BACKSLASH : c === TAB ? 0x74 : c === NEWLINE ? 0x6e : c === CARRIAGE_RETURN ? 0x72 : 0;
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
