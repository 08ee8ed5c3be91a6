import { describe, expect, it } from 'vitest';
import { BROWSER_SESSION, judgeSession, sessionTimes, TOUCH_INTERVAL_MS } from '../../../src/main/users/session-policy';

const signIn = new Date('2026-11-24T00:00:00.000Z');
const after = (ms: number): Date => new Date(signIn.getTime() + ms);
const HOUR_MS = 3_600_000;

describe('judgeSession', () => {
  const session = sessionTimes(BROWSER_SESSION, signIn, 4790);

  it('is live on its own server within both lifetimes, touched at most once a minute', () => {
    expect(judgeSession(session, after(1000), 4790)).toEqual({ live: true, touch: false });
    expect(judgeSession(session, after(TOUCH_INTERVAL_MS), 4790)).toEqual({ live: true, touch: true });
  });

  it('is useless on any other server, and a bound session on an unbound one', () => {
    expect(judgeSession(session, after(1000), 4791)).toEqual({ live: false, reason: 'other_server' });
    expect(judgeSession(session, after(1000), null)).toEqual({ live: false, reason: 'other_server' });
    expect(judgeSession(sessionTimes(BROWSER_SESSION, signIn, null), after(1000), 4790)).toMatchObject({
      live: false,
    });
  });

  it('ends after the idle time without use', () => {
    expect(judgeSession(session, after(BROWSER_SESSION.idleMs - 1), 4790).live).toBe(true);
    expect(judgeSession(session, after(BROWSER_SESSION.idleMs), 4790)).toEqual({ live: false, reason: 'idle' });
  });

  it('ends at the absolute lifetime however recently it was used', () => {
    const busy = { ...session, last_used_at: after(BROWSER_SESSION.absoluteMs - HOUR_MS).toISOString() };
    expect(judgeSession(busy, after(BROWSER_SESSION.absoluteMs - 1), 4790).live).toBe(true);
    expect(judgeSession(busy, after(BROWSER_SESSION.absoluteMs), 4790)).toEqual({ live: false, reason: 'expired' });
  });
});
