/**
 * GET /v1/events is bounded: at most MAX_STREAMS_PER_USER open streams per user (409 in the
 * error shape beyond), and a viewer that stops reading is sent `reload` and closed instead of
 * having the server buffer every event for it.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveStreams } from '../../../src/main/live/live-streams';
import { ScanFeed, type ScanNotice } from '../../../src/main/live/scan-feed';
import { MAX_STREAMS_PER_USER } from '../../../src/main/live/stream-limits';
import {
  carries,
  createStreamingContext,
  openEventStream,
  scansOf,
  type EventStreamClient,
  type StreamingContext,
} from '../../helpers/event-stream';
import { submitScan } from '../../helpers/scan-fixtures';
import type { TestContext } from '../../helpers/test-app';

/** A notice of a made-up scan of `userId`'s, about `bytes` long as JSON. */
function notice(userId: string, n: number, bytes: number): ScanNotice {
  return {
    id: `scan_backlog${String(n).padStart(8, '0')}`,
    created_at: '2026-11-26T10:00:00.000Z',
    tool: 't'.repeat(bytes),
    action: 'edit',
    tokens: n,
    status: 'completed',
    organization_id: null,
    source: 'submitted',
    violation_count: 0,
    submitted_by: userId,
  } as ScanNotice;
}

/**
 * GET /v1/events on a raw socket that reads nothing until `drain` is called; drain reads to the
 * end of the response (the connection itself may stay open for another request).
 */
function stalledStream(port: number, token: string): { socket: Socket; drain(): Promise<string> } {
  const socket = connect({ host: '127.0.0.1', port });
  socket.write(
    `GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  socket.pause();
  return {
    socket,
    drain: () =>
      new Promise((resolve, reject) => {
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          text += chunk;
          if (text.endsWith('\r\n0\r\n\r\n')) resolve(text);
        });
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
        socket.resume();
      }),
  };
}

describe('GET /v1/events limits', () => {
  let streaming: StreamingContext;
  let ctx: TestContext;
  let port: number;

  beforeAll(async () => {
    streaming = await createStreamingContext();
    ({ ctx, port } = streaming);
  });
  afterAll(() => streaming.close());

  it(`refuses a user's stream beyond ${MAX_STREAMS_PER_USER} with 409, until one closes; others are not held back`, async () => {
    const user = await ctx.createUser('many-tabs');
    const other = await ctx.createUser('one-tab');
    const open: EventStreamClient[] = [];
    try {
      for (let n = 0; n < MAX_STREAMS_PER_USER; n += 1) open.push(await openEventStream(port, user.token));
      const refused = await openEventStream(port, user.token).then(
        () => ({ status: 200, body: '' }),
        (error: { status: number; body: string }) => error,
      );
      expect(refused.status).toBe(409);
      expect(JSON.parse(refused.body)).toMatchObject({
        error: { status: 409, code: 'conflict', message: expect.stringContaining(`${MAX_STREAMS_PER_USER}`) },
      });
      open.push(await openEventStream(port, other.token));

      const first = open.shift()!;
      first.close();
      await first.ended;
      await expect
        .poll(async () =>
          openEventStream(port, user.token).then(
            (s) => (open.push(s), true),
            () => false,
          ),
        )
        .toBe(true);
      // Every stream that stayed open still hears its user's scans.
      const scan = await submitScan(ctx, { tool: 'cursor', action: 'edit', tokens: 1 }, user);
      await Promise.all(open.slice(0, MAX_STREAMS_PER_USER - 1).map((s) => s.waitFor(carries(scan.id))));
    } finally {
      for (const stream of open) stream.close();
    }
  });

  it('sends reload to a viewer that stopped reading and closes its stream; a reading viewer hears all', async () => {
    const user = await ctx.createUser('stalled');
    const hub = LiveStreams.of(ctx.db);
    await expect.poll(() => hub.size).toBe(0);
    const stalled = stalledStream(port, user.token);
    const reading = await openEventStream(port, user.token);
    try {
      await expect.poll(() => hub.size).toBe(2);
      // Far more than the socket buffers of loopback hold: about 16 MB of events, in deliveries
      // a reader keeps up with (this process is both server and reader).
      const notices = Array.from({ length: 2400 }, (_, n) => notice(user.id, n, 7000));
      const feed = ScanFeed.of(ctx.db);
      for (let at = 0; at < notices.length; at += 20) {
        feed.publish(notices.slice(at, at + 20));
        await reading.waitFor(carries(notices[Math.min(at + 19, notices.length - 1)]!.id), 10_000);
      }
      await expect.poll(() => hub.size, { timeout: 10_000 }).toBe(1);
      expect(reading.events.filter((event) => event.event === 'reload')).toEqual([]);

      const text = await stalled.drain();
      expect(text).toMatch(/^HTTP\/1\.1 200/);
      // The last chunk before the end of the chunked body is the reload event.
      expect(text).toMatch(/event: reload\ndata: \{\}\n\n\r\n0\r\n\r\n$/);
      expect(text.split('event: scans').length - 1).toBeLessThan(notices.length);
      const heard = new Set(reading.events.flatMap(scansOf).map((scan) => scan.id));
      expect(heard.size).toBe(notices.length);
    } finally {
      stalled.socket.destroy();
      reading.close();
    }
  }, 60_000);
});
