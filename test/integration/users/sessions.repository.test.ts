/**
 * Ended browser sessions are purged: sign-ins clear away sessions that have run out, a bounded
 * batch at a time, and one user's sessions are capped, so the table holds what is live.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BROWSER_SESSION,
  DESKTOP_SESSION,
  MAX_SESSIONS_PER_USER,
  PURGE_BATCH,
} from '../../../src/main/users/session-policy';
import { createSession, findUserBySession } from '../../../src/main/users/sessions.repository';
import { findTokenCredential } from '../../../src/main/users/users.repository';
import { createTestContext, type TestContext } from '../../helpers/test-app';

const DAY_MS = 86_400_000;

describe('session purge', () => {
  let ctx: TestContext;
  let tokenId: string;
  beforeEach(async () => {
    ctx = await createTestContext();
    tokenId = (await findTokenCredential(ctx.db, ctx.owner.token))!.tokenId;
  });
  afterEach(() => ctx.close());

  const sessionRows = async (): Promise<number> =>
    Number(
      (
        await ctx.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('1,000 sign-ins, each after the one before has ended, leave one session, not 1,000', async () => {
    const start = Date.now() - 1000 * 8 * DAY_MS;
    for (let i = 0; i < 1000; i++) {
      await createSession(ctx.db, ctx.owner.id, {
        lifetime: BROWSER_SESSION,
        port: null,
        tokenId,
        at: new Date(start + i * 8 * DAY_MS),
      });
    }
    expect(await sessionRows()).toBe(1);
  });

  it('a session left idle past its idle time is purged by a later sign-in, however far its absolute end', async () => {
    const at = new Date(Date.now() - BROWSER_SESSION.idleMs - 1000);
    const idle = await createSession(ctx.db, ctx.owner.id, { lifetime: BROWSER_SESSION, port: null, tokenId, at });
    await createSession(ctx.db, ctx.owner.id, { lifetime: BROWSER_SESSION, port: null, tokenId });
    expect(await sessionRows()).toBe(1);
    expect(await findUserBySession(ctx.db, idle, null)).toBeUndefined();
  });

  it('a session in use is not purged: using it moves the deadline the purge reads', async () => {
    const at = new Date(Date.now() - BROWSER_SESSION.idleMs + 60_000);
    const used = await createSession(ctx.db, ctx.owner.id, { lifetime: BROWSER_SESSION, port: null, tokenId, at });
    expect(await findUserBySession(ctx.db, used, null)).toBeDefined();
    await createSession(ctx.db, ctx.owner.id, {
      lifetime: BROWSER_SESSION,
      port: null,
      tokenId,
      at: new Date(Date.now() + 120_000),
    });
    expect(await sessionRows()).toBe(2);
    expect(await findUserBySession(ctx.db, used, null, new Date(Date.now() + 120_000))).toBeDefined();
  });

  it('one sign-in deletes at most a bounded batch of ended sessions; later ones take the rest', async () => {
    const old = new Date(Date.now() - 8 * DAY_MS);
    // Made at one past instant, none has ended then, so none purges another.
    for (let i = 0; i < PURGE_BATCH + 50; i++) {
      await createSession(ctx.db, ctx.owner.id, { lifetime: DESKTOP_SESSION, port: null, at: old });
    }
    await ctx.db
      .updateTable('sessions')
      .set({ ends_at: new Date(Date.now() - DAY_MS).toISOString() })
      .execute();
    expect(await sessionRows()).toBe(PURGE_BATCH + 50);
    await ctx.signIn();
    expect(await sessionRows()).toBe(50 + 1);
    await ctx.signIn();
    expect(await sessionRows()).toBe(2);
  });

  it('1,000 sign-ins through /?token= leave at most the per-user cap of live sessions, the newest', async () => {
    const desktop = await createSession(ctx.db, ctx.owner.id, { lifetime: DESKTOP_SESSION, port: null });
    const cookies: string[] = [];
    for (let i = 0; i < 1000; i++) cookies.push(await ctx.signIn());
    expect(await sessionRows()).toBe(MAX_SESSIONS_PER_USER + 1);
    const me = (cookie: string) => ctx.request({ method: 'GET', url: '/v1/me', as: null, headers: { cookie } });
    expect((await me(cookies[999]!)).statusCode).toBe(200);
    expect((await me(cookies[0]!)).statusCode).toBe(401);
    // The least recently used go, to the millisecond (sign-ins within one are in no set order).
    const recent = await Promise.all(cookies.slice(-2 * MAX_SESSIONS_PER_USER).map(me));
    expect(recent.filter((response) => response.statusCode === 200)).toHaveLength(MAX_SESSIONS_PER_USER);
    // The desktop window's own session is not a sign-in and is never pushed out by them.
    expect(await findUserBySession(ctx.db, desktop, null)).toBeDefined();
  });
});
