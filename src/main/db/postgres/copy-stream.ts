import { once } from 'node:events';
import type { Duplex, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Transaction } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database, Db } from '../database';
import { copyFromStatement, CopyText } from './copy-rows';
import { withPgClient } from './pool-driver';

/**
 * Bytes written before they are sent. Above a socket's 16 KiB high-water mark, so every send
 * waits for the socket to drain: a turn of the event loop between sends, and the server's pace.
 */
const SEND_BYTES = 256 * 1024;
/** A buffer holds a send and the row that crossed SEND_BYTES (a longer row grows it). */
const BUFFER_BYTES = SEND_BYTES + 64 * 1024;

/** Ended by `rollback`: the COPY fails with it, and the transaction rolls back. */
class CopyAbandoned extends Error {
  override readonly name = 'CopyAbandoned';
}

/**
 * One `COPY … FROM STDIN` kept open in a transaction of its own for as long as its writer has
 * rows: PostgreSQL ingests them as they arrive, with no round trip between chunks, and the writer
 * waits only while the server is behind (the socket's backpressure). A COPY per chunk left the
 * server idle at every chunk's round trip and the writer idle while the server caught up; on two
 * cores a million-entry import took 1.7× its CPU time.
 *
 * The transaction runs `prepare` first (say, the parent row of the rows), holds its connection
 * until `commit` or `rollback`, and is never run again (inTransaction's retries): the rows are
 * not kept to send twice. Rows are written into `text` a value at a time; `sendIfFull` after each.
 */
export class OpenCopy<T> {
  private buffer: CopyText;
  /** Buffers the socket may still be writing, and buffers free to write into. */
  private readonly sent: Buffer[] = [];
  private readonly spare: Buffer[] = [];
  private ended = false;
  /** The COPY's failure, once it failed: no byte is written after it. */
  private failure: unknown;

  private constructor(
    readonly value: T,
    private readonly stream: Writable,
    private readonly socket: Duplex,
    /** Rejects when the COPY fails (a constraint, the connection). */
    private readonly failed: Promise<never>,
    private readonly end: (error?: Error) => void,
    private readonly transaction: Promise<void>,
  ) {
    this.buffer = new CopyText(Buffer.allocUnsafeSlow(BUFFER_BYTES));
    failed.catch((error: unknown) => (this.failure = error));
  }

  /** Opens the COPY into `columns` of `table` after `prepare` ran in its transaction. */
  static open<T>(
    db: Db,
    table: string,
    columns: readonly string[],
    prepare: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<OpenCopy<T>> {
    const statement = copyFromStatement(table, columns);
    let end!: (error?: Error) => void;
    const ending = new Promise<void>((resolve, reject) => {
      end = (error) => (error ? reject(error) : resolve());
    });
    ending.catch(() => undefined);
    return new Promise((resolve, reject) => {
      const transaction = db
        .transaction()
        .setIsolationLevel('read committed')
        .execute(async (trx) => {
          const value = await prepare(trx);
          await withPgClient(trx, async (client) => {
            const stream = client.query(copyFrom(statement));
            const failed = new Promise<never>((_, fail) => stream.once('error', fail));
            failed.catch(() => undefined);
            resolve(new OpenCopy(value, stream, (client as pg.Client).connection.stream, failed, end, transaction));
            let abandoned: Error | undefined;
            // A failed COPY is over already; the transaction just rolls back.
            await Promise.race([ending.catch((error: Error) => void (abandoned = error)), failed]);
            if (abandoned) {
              // CopyFail: the server ends the COPY, and the connection is free to roll back.
              stream.destroy(abandoned);
              await finished(stream).catch(() => undefined);
              throw abandoned;
            }
            stream.end();
            await finished(stream);
          });
        });
      transaction.catch(reject);
    });
  }

  /** Where the next row's values go. */
  get text(): CopyText {
    return this.buffer;
  }

  /** Sends what is written once it is SEND_BYTES; then waits for the server to keep up. */
  sendIfFull(): Promise<void> | undefined {
    return this.buffer.size >= SEND_BYTES ? this.send() : undefined;
  }

  private async send(): Promise<void> {
    this.throwIfFailed();
    const written = this.buffer;
    this.buffer = new CopyText(this.freeBuffer());
    this.sent.push(written.buffer);
    const drained = this.stream.write(written.bytes()) ? undefined : once(this.stream, 'drain');
    await Promise.race([drained, this.failed]);
  }

  /**
   * A buffer to write into. One the socket has written out is used again: a fresh buffer per
   * send lives outside the JS heap until a full collection, so a long COPY would grow the
   * process by its whole size.
   */
  private freeBuffer(): Buffer {
    if (this.stream.writableLength === 0 && this.socket.writableLength === 0) this.spare.push(...this.sent.splice(0));
    return this.spare.pop() ?? Buffer.allocUnsafeSlow(BUFFER_BYTES);
  }

  /** Sends the rest, ends the COPY and commits; rejects with the COPY's or the commit's failure. */
  async commit(): Promise<void> {
    if (this.ended) throw new Error('the COPY has ended');
    this.ended = true;
    this.throwIfFailed();
    if (this.buffer.size > 0) {
      const rest = this.buffer.bytes();
      await Promise.race([
        new Promise<void>((resolve, reject) => this.stream.write(rest, (error) => (error ? reject(error) : resolve()))),
        this.failed,
      ]);
    }
    this.end();
    await this.transaction;
  }

  /** After a failure the stream has let go of its connection: a write would throw something else. */
  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Abandons the COPY and rolls its transaction back; nothing of it is stored. */
  async rollback(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      this.end(new CopyAbandoned('the COPY was abandoned'));
    }
    await this.transaction.catch(() => undefined);
  }
}
