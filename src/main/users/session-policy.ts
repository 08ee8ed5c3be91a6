import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../shared/time';
// When a browser session may still authenticate (docs/contract/auth.md#sessions,
// docs/security.md). Pure: the repository reads the row and the clock, this decides.

export interface SessionLifetime {
  /** Ends a session left unused this long. */
  idleMs: number;
  /** Ends a session this long after sign-in, however busy. */
  absoluteMs: number;
}

/** A sign-in link opened in a browser: a working day of idleness, a week at most. */
export const BROWSER_SESSION: SessionLifetime = { idleMs: 12 * HOUR_MS, absoluteMs: 7 * DAY_MS };

/**
 * The desktop window's own session, ended when the app quits: a laptop asleep over a weekend
 * must wake to a working window, so only a crashed app's leftover session ever runs out.
 */
export const DESKTOP_SESSION: SessionLifetime = { idleMs: 30 * DAY_MS, absoluteMs: 30 * DAY_MS };

/** Using a session moves its idle deadline, but writing that on every request would cost a write each. */
export const TOUCH_INTERVAL_MS = MINUTE_MS;

export interface SessionTimes {
  /** The port of the server that made it; a session is good on that server only. */
  port: number | null;
  last_used_at: string;
  idle_ms: number;
  expires_at: string;
}

export type SessionVerdict =
  { live: true; touch: boolean } | { live: false; reason: 'expired' | 'idle' | 'other_server' };

export function judgeSession(session: SessionTimes, at: Date, port: number | null): SessionVerdict {
  if (session.port !== port) return { live: false, reason: 'other_server' };
  const now = at.getTime();
  if (now >= Date.parse(session.expires_at)) return { live: false, reason: 'expired' };
  const lastUsed = Date.parse(session.last_used_at);
  if (now >= lastUsed + session.idle_ms) return { live: false, reason: 'idle' };
  return { live: true, touch: now - lastUsed >= TOUCH_INTERVAL_MS };
}

/**
 * When a session is over unless it is used again: the earlier of its absolute end and its idle
 * deadline. Stored beside the times it derives from, so that ended sessions can be found by an
 * index and purged without reading every live one.
 */
export function sessionEndsAt(session: Pick<SessionTimes, 'last_used_at' | 'idle_ms' | 'expires_at'>): string {
  const idleEnd = Date.parse(session.last_used_at) + session.idle_ms;
  return idleEnd < Date.parse(session.expires_at) ? new Date(idleEnd).toISOString() : session.expires_at;
}

/** Ended sessions one sign-in deletes at most: a sign-in never pays for a long backlog at once. */
export const PURGE_BATCH = 100;

/**
 * Browser sessions one user may hold at once; a sign-in past it ends their least recently used
 * ones. A script that signs in in a loop cannot grow the table without bound within a lifetime.
 */
export const MAX_SESSIONS_PER_USER = 20;

/** The columns a new session starts with. */
export function sessionTimes(lifetime: SessionLifetime, at: Date, port: number | null): SessionTimes {
  const createdAt = at.toISOString();
  return {
    port,
    last_used_at: createdAt,
    idle_ms: lifetime.idleMs,
    expires_at: new Date(at.getTime() + lifetime.absoluteMs).toISOString(),
  };
}
