import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CopyOutBytes } from '../../../../src/main/db/postgres/copy-out-rows';

/** A backend message: its code, then its length (counting itself) and body. */
function message(code: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head.write(code, 0, 'latin1');
  head.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const ROWS = [Buffer.from('first row'), Buffer.alloc(0), Buffer.from('x'.repeat(200)), Buffer.from('é🚀')];
/** What the backend sends for a COPY OUT whose data is ROWS, then what follows for pg. */
const COPY = Buffer.concat([
  message('H', Buffer.from([1, 0, 0])),
  message('d', ROWS[0]),
  message('N', Buffer.from('Snotice\0\0')),
  ...ROWS.slice(1).map((row) => message('d', row)),
  message('c'),
]);
const AFTER = Buffer.concat([message('C', Buffer.from('COPY 4\0')), message('Z', Buffer.from('I'))]);

/** A pg connection as CopyOutBytes sees it: a socket with pg's parser as its one data listener. */
function fakeConnection() {
  const stream = new EventEmitter();
  const toPg: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => toPg.push(chunk));
  const sent: string[] = [];
  const connection = { stream, query: (text: string) => sent.push(text) } as unknown as pg.Connection;
  return { stream, connection, sent, toPg };
}

/** Feeds `bytes` to a COPY in pieces cut at `cuts`; what the COPY gathered, and what went on to pg. */
async function feed(bytes: Buffer, cuts: readonly number[]) {
  const { stream, connection, sent, toPg } = fakeConnection();
  const copy = new CopyOutBytes('COPY (SELECT 1) TO STDOUT (FORMAT binary)');
  copy.submit(connection);
  expect(sent).toEqual(['COPY (SELECT 1) TO STDOUT (FORMAT binary)']);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    stream.emit('data', bytes.subarray(from, cut));
    from = cut;
  }
  copy.handleCommandComplete();
  copy.handleReadyForQuery();
  return { data: await copy.done, toPg: Buffer.concat(toPg), listeners: stream.listenerCount('data') };
}

describe('CopyOutBytes', () => {
  it('gathers the CopyData bodies and hands pg the rest, however the socket cuts the messages', async () => {
    const bytes = Buffer.concat([COPY, AFTER]);
    for (const cuts of [[], Array.from({ length: bytes.length - 1 }, (_, i) => i + 1), [COPY.length], [3, 250]]) {
      const { data, toPg, listeners } = await feed(bytes, cuts);
      expect(data.equals(Buffer.concat(ROWS))).toBe(true);
      expect(toPg.equals(AFTER)).toBe(true);
      expect(listeners).toBe(1);
    }
    for (let cut = 1; cut < bytes.length; cut++) {
      const { data, toPg } = await feed(bytes, [cut]);
      expect(data.equals(Buffer.concat(ROWS))).toBe(true);
      expect(toPg.equals(AFTER)).toBe(true);
    }
  });

  it('gathers more data than its first buffer holds', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => Buffer.from(`row ${i} `.repeat(5)));
    const bytes = Buffer.concat([
      message('H', Buffer.from([1, 0, 0])),
      ...rows.map((row) => message('d', row)),
      message('c'),
      AFTER,
    ]);
    const cuts = Array.from({ length: Math.floor(bytes.length / 65_536) }, (_, i) => (i + 1) * 65_536);
    const { data, toPg } = await feed(bytes, cuts);
    expect(data.equals(Buffer.concat(rows))).toBe(true);
    expect(toPg.equals(AFTER)).toBe(true);
  });

  it('hands pg an error from its first byte, and rejects with what pg makes of it', async () => {
    const error = message('E', Buffer.from('SERROR\0Mdivision by zero\0\0'));
    const bytes = Buffer.concat([
      message('H', Buffer.from([1, 0, 0])),
      message('d', ROWS[0]!),
      error,
      message('Z', Buffer.from('I')),
    ]);
    for (const cut of [1, 15, 20, 21, 22, bytes.length - 3]) {
      const { stream, connection, toPg } = fakeConnection();
      const copy = new CopyOutBytes('COPY x');
      copy.submit(connection);
      stream.emit('data', bytes.subarray(0, cut));
      stream.emit('data', bytes.subarray(cut));
      const failed = new Error('division by zero');
      copy.handleError(failed);
      await expect(copy.done).rejects.toBe(failed);
      expect(Buffer.concat(toPg).equals(bytes.subarray(bytes.indexOf(error)))).toBe(true);
      expect(stream.listenerCount('data')).toBe(1);
    }
  });

  it('refuses a connection whose socket it cannot take over', () => {
    const { stream, connection } = fakeConnection();
    stream.on('data', () => undefined);
    expect(new CopyOutBytes('COPY x').submit(connection)).toBeInstanceOf(Error);
  });
});
