/**
 * GET /v1/events streams end with the token or session that opened them: at sign-out, when the
 * token is rotated by another process on the same store (the CLI's `token --rotate` opens the
 * store itself), when the session expires; on PostgreSQL, a stream on one server process ends
 * when its token is rotated through another.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/db/open-database';
import { RECHECK_MS } from '../../../src/main/live/stream-limits';
import { rotateTokensOf } from '../../../src/main/users/tokens.service';
import { openWorkspace } from '../../../src/main/workspace/workspace';
import {
  carries,
  createStreamingContext,
  heardIds,
  listenOn,
  openEventStream,
  type EventStreamClient,
  type ListeningApp,
  type StreamingContext,
} from '../../helpers/event-stream';
import { submitScan } from '../../helpers/scan-fixtures';
import type { TestContext, TestUser } from '../../helpers/test-app';
import { onPostgres, testDatabaseFor } from '../../helpers/test-database';

/** Resolves true once the stream has ended, false if it is still open after `ms`. */
const endsWithin = (client: EventStreamClient, ms: number): Promise<boolean> =>
  Promise.race([client.ended.then(() => true), new Promise<boolean>((done) => setTimeout(() => done(false), ms))]);

/** Sends a request without a body to a listening server; its status and headers. */
function send(port: number, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; cookie: string | undefined }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, cookie: response.headers['set-cookie']?.[0]?.split(';')[0] });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Signs in as a browser does on a listening server (the link typed in); the `Cookie` header for its port. */
async function signIn(port: number, user: TestUser): Promise<string> {
  const { status, cookie } = await send(port, 'GET', `/?token=${encodeURIComponent(user.token)}`);
  if (status !== 303 || !cookie) throw new Error(`sign-in answered ${status}`);
  return cookie;
}

/** Runs `work` on the store through a connection of its own, as another process (the CLI) would. */
async function asAnotherProcess<T>(ctx: TestContext, work: (db: TestContext['db']) => Promise<T>): Promise<T> {
  const workspace = await openWorkspace(ctx.dataDir, { database: await testDatabaseFor(ctx.dataDir) });
  try {
    return await work(workspace.db);
  } finally {
    await workspace.close();
  }
}

describe('GET /v1/events ends with its credential', () => {
  let streaming: StreamingContext;
  let ctx: TestContext;
  let port: number;

  beforeAll(async () => {
    streaming = await createStreamingContext();
    ({ ctx, port } = streaming);
  });
  afterAll(() => streaming.close());

  it('ends a session stream at sign-out, and leaves the same user’s token stream open', async () => {
    const user = await ctx.createUser('signs-out');
    const cookie = await signIn(port, user);
    const bySession = await openEventStream(port, { cookie });
    const byToken = await openEventStream(port, user.token);
    try {
      expect((await send(port, 'DELETE', '/v1/session', { cookie })).status).toBe(204);
      expect(await endsWithin(bySession, 2000)).toBe(true);
      const later = await submitScan(ctx, { tool: 'cursor', action: 'edit', tokens: 1 }, user);
      await byToken.waitFor(carries(later.id));
      expect(heardIds(bySession)).toEqual([]);
    } finally {
      bySession.close();
      byToken.close();
    }
  });

  it('ends a token stream at the next delivery after another process rotates the token', async () => {
    const user = await ctx.createUser('rotated');
    const stream = await openEventStream(port, user.token);
    const other = await openEventStream(port, ctx.owner.token);
    try {
      await asAnotherProcess(ctx, (db) => rotateTokensOf(db, user.id));
      // Stored by the owner through the store, so the rotated user's scan is not refused.
      const scan = await submitScan(ctx, { tool: 'cursor', action: 'edit', tokens: 2 });
      await other.waitFor(carries(scan.id));
      expect(await endsWithin(stream, 2000)).toBe(true);
      expect(heardIds(stream)).toEqual([]);
    } finally {
      stream.close();
      other.close();
    }
  });

  it('ends a token stream within the check interval when nothing is delivered', async () => {
    const user = await ctx.createUser('rotated-idle');
    const stream = await openEventStream(port, user.token);
    try {
      await asAnotherProcess(ctx, (db) => rotateTokensOf(db, user.id));
      expect(await endsWithin(stream, RECHECK_MS + 2000)).toBe(true);
    } finally {
      stream.close();
    }
  }, 15_000);

  it('ends a session stream once the session has expired', async () => {
    const user = await ctx.createUser('expires');
    const cookie = await signIn(port, user);
    const stream = await openEventStream(port, { cookie });
    try {
      await ctx.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('user_id', '=', user.id)
        .execute();
      const scan = await submitScan(ctx, { tool: 'cursor', action: 'edit', tokens: 3 }, user);
      expect(await endsWithin(stream, 2000)).toBe(true);
      expect(heardIds(stream)).not.toContain(scan.id);
    } finally {
      stream.close();
    }
  });

  it.runIf(onPostgres)(
    'ends a stream on one server process when its token is rotated through another',
    async () => {
      const user = await ctx.createUser('two-servers');
      const location = await testDatabaseFor(ctx.dataDir);
      const otherDb = openDatabase(location!);
      let serverB: ListeningApp | undefined;
      let stream: EventStreamClient | undefined;
      try {
        serverB = await listenOn({ db: otherDb, dataDir: ctx.dataDir });
        stream = await openEventStream(serverB.port, user.token);
        // Server A's store handle: whatever A does in-process, B hears of it through the store only.
        await rotateTokensOf(ctx.db, user.id);
        expect(await endsWithin(stream, RECHECK_MS + 2000)).toBe(true);
      } finally {
        stream?.close();
        await serverB?.app.close();
        await otherDb.destroy();
      }
    },
    15_000,
  );
});
