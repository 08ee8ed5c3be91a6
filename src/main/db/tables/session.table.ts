import type { Selectable } from 'kysely';

export interface SessionTable {
  /** Hex SHA-256 of the session id in the browser's cookie; the id itself is never stored. */
  id_hash: string;
  user_id: string;
  created_at: string;
  /** The port of the server that made the session; null only for a server that does not listen. */
  port: number | null;
  /** Refreshed at most once a minute while the session is used (TOUCH_INTERVAL_MS, src/main/users/session-policy.ts). */
  last_used_at: string;
  idle_ms: number;
  /** The absolute end, however busy the session. */
  expires_at: string;
  /** The earlier of `expires_at` and the idle deadline, moved with `last_used_at`: when it is over unless used. */
  ends_at: string;
  /** The token that signed it in (revoking the token ends it); null for the desktop window's own session. */
  token_id: string | null;
}

export type SessionRow = Selectable<SessionTable>;
