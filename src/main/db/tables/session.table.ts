import type { Selectable } from 'kysely';

export interface SessionTable {
  /** Hex SHA-256 of the session id in the browser's cookie; the id itself is never stored. */
  id_hash: string;
  user_id: string;
  created_at: string;
  /** The port of the server that made the session; null only for a server that does not listen. */
  port: number | null;
  /** Refreshed at most once a minute while the session is used (see session-lifetime.ts). */
  last_used_at: string;
  idle_ms: number;
  /** The absolute end, however busy the session. */
  expires_at: string;
}

export type SessionRow = Selectable<SessionTable>;
