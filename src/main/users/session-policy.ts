import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../shared/time';
// When a browser session may still authenticate (SPEC.md §2, docs/security.md). Pure: the
// repository reads the row and the clock, this decides.

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

/**
 * Browsers send every cookie of 127.0.0.1 to every port there, so the cookie is named for the port:
 * two servers never overwrite each other's sessions, and each ignores the other's (the session
 * is bound to its port in the store too).
 */
export function sessionCookieName(port: number | null): string {
  return port === null ? 'scandesk_session' : `scandesk_session_${port}`;
}
