/**
 * A long timeline's package (`GET /v1/scans/:id/evidence/download`): on PostgreSQL it is read by
 * binary COPY a chunk at a time (timelineExportChunks); the bytes are the ones timelineLine writes
 * for every entry, on both backends, and a download that stops or goes away holds no connection.
 */
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolOf } from '../../../../src/main/db/postgres/postgres-connection';
import { writeEvidencePackage } from '../../../../src/main/evidence/export/package-writer';
import { TimelineJsonlEncoder, timelineLine } from '../../../../src/main/evidence/jsonl/timeline-encoder';
import { timelineExportChunks } from '../../../../src/main/evidence/timeline/timeline-reads.repository';
import type { StoredTimelineEntry } from '../../../../src/main/evidence/timeline/timeline-entry';
import { packagePaths } from '../../../../src/shared/evidence-package';
import { insertEvidenceScan } from '../../../helpers/evidence-fixtures';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { onPostgres } from '../../../helpers/test-database';
import { unzip } from '../../../helpers/zip-builder';

/** Past the writer's short-timeline limit (500), so the timeline is streamed. */
const LONG = 2_345;
/** Several COPY chunks of 50,000 and several socket buffers' worth of package. */
const HUGE = 300_000;
const ACTIONS = ['chat.completion', 'say "hi"', 'back\\slash', 'tab\there', 'café 🚀', 'tool.5pwu', 'tool.g5fa'];
const START = Date.UTC(2026, 10, 1, 23, 59);

/** Entries over a day boundary, with every action JSON escapes or encodes and tokens past 2^31. */
const entryAt = (seq: number): StoredTimelineEntry => ({
  timestamp: START + seq * 997,
  action: ACTIONS[seq % ACTIONS.length]!,
  tokens: seq % 101 === 0 ? 2 ** 40 + seq : seq % 4000,
});

const expectedJsonl = (entries: number): Buffer =>
  Buffer.from(
    Array.from({ length: entries }, (_, seq) => {
      const entry = entryAt(seq);
      return timelineLine(entry.timestamp, entry.action, entry.tokens);
    }).join(''),
    'utf8',
  );

describe('the package of a long timeline', () => {
  let ctx: TestContext;
  let timeline: { scanId: string; timelineId: number };

  beforeAll(async () => {
    ctx = await createTestContext();
    await insertEvidenceScan(ctx.db, { id: 'scan_LONG', submittedBy: ctx.owner.id, entries: LONG, entryAt });
    const row = await ctx.db
      .selectFrom('timelines')
      .select('id')
      .where('scan_id', '=', 'scan_LONG')
      .executeTakeFirstOrThrow();
    timeline = { scanId: 'scan_LONG', timelineId: Number(row.id) };
  });
  afterAll(() => ctx.close());

  it('holds every entry in order, as timelineLine writes it', async () => {
    const response = await ctx.request({ method: 'GET', url: '/v1/scans/scan_LONG/evidence/download' });
    expect(response.statusCode).toBe(200);
    const files = await unzip(response.rawPayload);
    expect(files.get(packagePaths('scan_LONG').timeline)!.equals(expectedJsonl(LONG))).toBe(true);
  });

  it('reads the timeline in COPY chunks of the size asked for, each encoded as the whole', async () => {
    const encoder = new TimelineJsonlEncoder();
    const sizes: number[] = [];
    const encoded: Buffer[] = [];
    for await (const chunk of timelineExportChunks(ctx.db, timeline, 1000)) {
      sizes.push(chunk.length);
      encoded.push(encoder.encode(chunk));
    }
    // SQLite reads in the tuple reader's chunks whatever the COPY size asked.
    expect(sizes).toEqual(onPostgres ? [1000, 1000, 345] : [LONG]);
    expect(Buffer.concat(encoded).equals(expectedJsonl(LONG))).toBe(true);
  });

  it('reads a timeline of an exact multiple of the chunk size', async () => {
    const sizes: number[] = [];
    for await (const chunk of timelineExportChunks(ctx.db, timeline, 469)) sizes.push(chunk.length);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(LONG);
    if (onPostgres) expect(sizes).toEqual([469, 469, 469, 469, 469]);
  });
});

describe.runIf(onPostgres)('a PostgreSQL download that stops or goes away', () => {
  let ctx: TestContext;
  let port: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    await insertEvidenceScan(ctx.db, { id: 'scan_HUGE', submittedBy: ctx.owner.id, entries: HUGE });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(() => ctx.close());

  const getOver = (path: string): Promise<IncomingMessage> =>
    new Promise((resolve, reject) =>
      get({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${ctx.owner.token}` } }, resolve).on(
        'error',
        reject,
      ),
    );
  const download = (): Promise<IncomingMessage> => getOver('/v1/scans/scan_HUGE/evidence/download');
  /** A request that needs the store answers meanwhile. */
  async function expectServing(): Promise<void> {
    const response = await getOver('/v1/scans?limit=1');
    expect(response.statusCode).toBe(200);
    response.resume();
  }

  /** Pool connections taken and not handed back. */
  const checkedOut = (): number => poolOf(ctx.db).totalCount - poolOf(ctx.db).idleCount;

  async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
    for (let tries = 0; tries < 100; tries++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('not within 5 s');
  }

  it('holds no connection while its reader does not read', async () => {
    // The writer itself, not over a socket: loopback buffers could hold the whole package.
    const scan = await ctx.db.selectFrom('scans').selectAll().where('id', '=', 'scan_HUGE').executeTakeFirstOrThrow();
    const stream = writeEvidencePackage(ctx.db, [scan]);
    await new Promise((resolve) => stream.once('readable', resolve));
    expect(stream.read()).not.toBeNull();
    // Stopped by backpressure, a chunk or two read ahead of the reader.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await eventually(() => checkedOut() === 0);
    expect(stream.readableEnded).toBe(false);
    await expectServing();
    stream.destroy();
  });

  it('hands every connection back, and leaves no COPY running, when the client goes away', async () => {
    const response = await download();
    let received = 0;
    await new Promise<void>((resolve) => {
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 256 * 1024) {
          response.destroy();
          resolve();
        }
      });
    });
    await eventually(() => checkedOut() === 0);
    await eventually(async () => {
      const { rows } = await poolOf(ctx.db).query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY%' AND state = 'active'",
      );
      return rows[0]!.n === 0;
    });
    await expectServing();
  });
});
