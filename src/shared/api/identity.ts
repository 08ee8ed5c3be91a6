import { Type, type Static } from 'typebox';

export const IdentityQuery = Type.Object(
  {
    challenge: Type.String({
      pattern: '^[0-9a-f]{32,128}$',
      description: 'Random lowercase hex chosen by the client, 16 to 64 bytes',
    }),
  },
  { additionalProperties: false },
);
export type IdentityQuery = Static<typeof IdentityQuery>;

/** Proof that this server holds the data directory's key (docs/contract/auth.md#server-identity). */
export const Identity = Type.Object({
  proof: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description:
      'HMAC-SHA256 of "scandesk.identity.v1\\0" + challenge + "\\0" + the local address + "\\0" + the local port ' +
      'of the connection, as the server socket has them, keyed with <data-dir>/server-key, in hex',
  }),
});
export type Identity = Static<typeof Identity>;
