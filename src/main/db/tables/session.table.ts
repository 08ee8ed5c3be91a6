export interface SessionTable {
  /** Hex SHA-256 of the session id in the browser's cookie; the id itself is never stored. */
  id_hash: string;
  user_id: string;
  created_at: string;
}
