import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Identity, IdentityQuery } from '../../shared/api/identity';
import { DomainError } from '../domain-error';
import { identityProof } from './identity-proof';
import { readServerKey } from './server-key';

export interface IdentityDeps {
  /** The data directory whose key the server proves; without one (some tests) there is none. */
  dataDir?: string | undefined;
}

export const identityRoutes: FastifyPluginAsyncTypebox<IdentityDeps> = async (app, { dataDir }) => {
  let key: Buffer | null = null;
  app.get(
    '/v1/identity',
    {
      // Public: the CLI asks before it sends a token, and the answer reveals nothing (an HMAC of
      // the caller's own random challenge).
      config: { public: true },
      schema: {
        tags: ['identity'],
        summary: "Proof that this server holds its data directory's key",
        description:
          'The CLI sends a random challenge before it sends a token read from a data directory, and checks the ' +
          "proof with the same directory's `server-key`: a token never goes to another program listening on the port.",
        security: [],
        querystring: IdentityQuery,
        response: { 200: Identity },
      },
    },
    async (request) => {
      key ??= dataDir === undefined ? null : readServerKey(dataDir);
      if (!key) throw new DomainError('not_found', 'this server has no data directory key to prove');
      // The connection's own end, as this socket has it: what the client reached.
      const { localAddress = '', localPort = 0 } = request.socket;
      return { proof: identityProof(key, request.query.challenge, { address: localAddress, port: localPort }) };
    },
  );
};
