import type { Insertable, Selectable } from 'kysely';

export interface TokenTable {
  id: string;
  user_id: string;
  /** Hex SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  /** Its prefix and last four characters (`sdt_…Wx3Q`), kept when it is made; null for older tokens. */
  hint: string | null;
  /** Written at most once a minute while the token is used; null until its first use. */
  last_used_at: string | null;
}

export type TokenRow = Selectable<TokenTable>;
export type NewToken = Insertable<TokenTable>;
