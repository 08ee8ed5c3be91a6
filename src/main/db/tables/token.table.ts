import type { Insertable, Selectable } from 'kysely';

export interface TokenTable {
  id: string;
  user_id: string;
  /** Hex SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
}

export type TokenRow = Selectable<TokenTable>;
export type NewToken = Insertable<TokenTable>;
