import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { Db } from '../database';
import { BinaryCopyRows, int32At } from './binary-copy-rows';
import { withPgClient } from './pool-driver';

/**
 * The rows of `query` through one `COPY (query) TO STDOUT (FORMAT binary)`, held whole: for a
 * read bounded by its LIMIT (a keyset chunk of a long timeline), `fields` columns, none NULL. A
 * million rows cross as about 50 MB of plain bytes that are read in place (BinaryCopyRows), where
 * pg's row messages cost a Buffer, a string per field and a parse per number (the export's CPU at
 * 0.37× `zip -q`). The connection is taken from the pool for this COPY only and handed back once
 * its last byte is in, so a slow consumer of the rows never holds it. COPY takes no parameters:
 * the query's must be integers, written into the statement as literals.
 */
export async function copyOutRows(db: Db, query: CompiledQuery, fields: number): Promise<BinaryCopyRows> {
  const statement = `COPY (${withIntegerLiterals(query)}) TO STDOUT (FORMAT binary)`;
  const bytes = await withPgClient(db, (client) => client.query(new CopyOutBytes(statement)).done);
  return new BinaryCopyRows(bytes, fields);
}

function withIntegerLiterals(query: CompiledQuery): string {
  return query.sql.replace(/\$(\d+)/g, (_, position: string) => {
    const value = query.parameters[Number(position) - 1];
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      throw new Error(`a COPY's parameters must be integers, not ${typeof value}`);
    }
    return String(value);
  });
}

// Backend messages of a COPY OUT (PostgreSQL docs, "Message Formats"): a code byte, then a 32-bit
// length that counts itself but not the code.
const COPY_OUT_RESPONSE = 0x48; // H
const COPY_DATA = 0x64; // d
const COPY_DONE = 0x63; // c
/** What the backend may send at any time; nothing here listens for it on a pool connection. */
const NOTICE = 0x4e; // N
const PARAMETER_STATUS = 0x53; // S
const NOTIFICATION = 0x41; // A
const HEADER_BYTES = 5;
const FIRST_BUFFER_BYTES = 1 << 20;

const ownMessage = (code: number): boolean =>
  code === COPY_DATA ||
  code === COPY_OUT_RESPONSE ||
  code === COPY_DONE ||
  code === NOTICE ||
  code === PARAMETER_STATUS ||
  code === NOTIFICATION;

/**
 * A COPY OUT as pg's active query (a Submittable), its data taken from the socket before pg's
 * parser sees it: pg's own path (pg-copy-streams too) makes a message object and a Buffer per
 * CopyData message, one per row, where this copies the payloads into one buffer as they arrive.
 * From CopyDone on (or an ErrorResponse, or anything else) the bytes go back to pg, which then
 * finishes the query as usual: CommandComplete and ReadyForQuery, or the error.
 */
export class CopyOutBytes implements pg.Submittable {
  readonly done: Promise<Buffer>;
  private resolve!: (bytes: Buffer) => void;
  private reject!: (error: Error) => void;
  private out = Buffer.allocUnsafe(FIRST_BUFFER_BYTES);
  private length = 0;
  private readonly header = Buffer.alloc(HEADER_BYTES);
  /** Bytes of the current message's header read so far: 0 between messages. */
  private headerRead = 0;
  /** Bytes of the current message's body still to come. */
  private remaining = 0;
  private stream: pg.Connection['stream'] | undefined;
  private pgListener: ((chunk: Buffer) => void) | undefined;

  constructor(private readonly text: string) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: pg.Connection): Error | undefined {
    const stream = connection.stream;
    const listeners = stream.listeners('data');
    if (listeners.length !== 1) return new Error('cannot take over the connection for a COPY: not one data listener');
    this.pgListener = listeners[0] as (chunk: Buffer) => void;
    this.stream = stream;
    stream.removeListener('data', this.pgListener);
    stream.on('data', this.onData);
    connection.query(this.text);
    return undefined;
  }

  handleError(error: Error): void {
    this.detach();
    this.reject(error);
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    this.resolve(this.out.subarray(0, this.length));
  }

  private readonly onData = (chunk: Buffer): void => {
    let at = this.headerRead === 0 && this.remaining === 0 ? 0 : this.finishMessage(chunk, 0);
    // Whole messages, the common case, read with no state kept between them.
    while (at >= 0 && at + HEADER_BYTES <= chunk.length) {
      const code = chunk[at]!;
      if (!ownMessage(code)) return this.detach(chunk.subarray(at));
      const body = readLength(chunk, at + 1) - 4;
      const next = at + HEADER_BYTES + body;
      if (next > chunk.length) break;
      if (code === COPY_DATA) this.append(chunk, at + HEADER_BYTES, next);
      if (code === COPY_DONE) return this.detach(chunk.subarray(next));
      at = next;
    }
    if (at >= 0 && at < chunk.length) this.finishMessage(chunk, at);
  };

  /**
   * Reads from `at` a message that does not fit in what has come so far, keeping its state
   * across chunks; returns where the next message starts, or -1 when this chunk has been used up
   * or the socket has been handed back.
   */
  private finishMessage(chunk: Buffer, at: number): number {
    if (this.headerRead < HEADER_BYTES) {
      if (this.headerRead === 0 && !ownMessage(chunk[at]!)) {
        this.detach(chunk.subarray(at));
        return -1;
      }
      while (this.headerRead < HEADER_BYTES && at < chunk.length) this.header[this.headerRead++] = chunk[at++]!;
      if (this.headerRead < HEADER_BYTES) return -1;
      this.remaining = readLength(this.header, 1) - 4;
    }
    const end = Math.min(chunk.length, at + this.remaining);
    if (this.header[0] === COPY_DATA) this.append(chunk, at, end);
    this.remaining -= end - at;
    if (this.remaining > 0) return -1;
    this.headerRead = 0;
    if (this.header[0] === COPY_DONE) {
      this.detach(chunk.subarray(end));
      return -1;
    }
    return end;
  }

  /** Hands the socket back to pg, with what it has read of it past the COPY's data. */
  private detach(rest?: Buffer): void {
    const { stream, pgListener } = this;
    if (!stream || !pgListener) return;
    this.stream = undefined;
    stream.removeListener('data', this.onData);
    stream.on('data', pgListener);
    if (rest && rest.length > 0) pgListener(rest);
  }

  /** Copies chunk[from, to) to the end of the data. */
  private append(chunk: Buffer, from: number, to: number): void {
    let length = this.length;
    if (length + to - from > this.out.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.out.length * 2, length + to - from));
      this.out.copy(grown, 0, 0, length);
      this.out = grown;
    }
    const out = this.out;
    // A row's CopyData is some 50 bytes: a byte loop beats Buffer#copy's call into C++ there.
    if (to - from > 64) {
      chunk.copy(out, length, from, to);
      length += to - from;
    } else for (let i = from; i < to; i++) out[length++] = chunk[i]!;
    this.length = length;
  }
}

/** A message's length field: a 32-bit unsigned integer. */
const readLength = (bytes: Buffer, at: number): number => int32At(bytes, at) >>> 0;
