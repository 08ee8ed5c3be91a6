import { Type, type Static } from 'typebox';
import { Id, Timestamp } from './common';

/** A token as its user and the workspace owner see it: never the token, nor its hash. */
export const TokenInfo = Type.Object({
  id: Id,
  user_id: Id,
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()], {
    description: 'Its last use (a request or a sign-in), to the minute; null if never used',
  }),
  hint: Type.Union([Type.String(), Type.Null()], {
    description: 'Its prefix and last four characters (`sdt_…Wx3Q`); null for tokens made before hints were kept',
  }),
});
export type TokenInfo = Static<typeof TokenInfo>;

export const TokenList = Type.Object({ tokens: Type.Array(TokenInfo) });
export type TokenList = Static<typeof TokenList>;

export const CreatedToken = Type.Object({
  ...TokenInfo.properties,
  token: Type.String({ description: 'Shown once; only its SHA-256 is stored' }),
});
export type CreatedToken = Static<typeof CreatedToken>;

export const UserTokensParams = Type.Object({ user_id: Id });
export type UserTokensParams = Static<typeof UserTokensParams>;

export const TokenParams = Type.Object({ token_id: Id });
export type TokenParams = Static<typeof TokenParams>;
