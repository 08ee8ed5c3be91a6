import type { Insertable, Selectable } from 'kysely';

/** An idempotent submit's key (docs/contract/api.md#idempotent-submit): one per user and key. */
export interface SubmitKeyTable {
  user_id: string;
  /** The `Idempotency-Key` header as sent: 1–200 printable ASCII characters. */
  key: string;
  /** The scan the first request with this key stored. */
  scan_id: string;
  /** Hex SHA-256 of that request's body as a JSON value. */
  body_sha256: string;
  /** Epoch ms. */
  created_at: number;
}

export type SubmitKeyRow = Selectable<SubmitKeyTable>;
export type NewSubmitKey = Insertable<SubmitKeyTable>;
