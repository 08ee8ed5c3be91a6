import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreatedToken, TokenInfo, TokenList, TokenParams, UserTokensParams } from '../../shared/api/tokens';
import { CreatedUser, CreateUserBody, User, UserList } from '../../shared/api/users';
import { createdResponse } from '../http/created-response';
import { forbidden } from '../domain-error';
import type { RouteDeps } from '../http/route-types';
import { tokenFileOf } from './token-file';
import { createToken, findToken, listTokens, revokeToken, rotateTokens } from './tokens.service';
import { listUsers } from './users.repository';
import { createUser, toUser } from './users.service';

const ownerOnly = (isOwner: number): void => {
  if (!isOwner) throw forbidden('only the workspace owner may manage users');
};

const TOKEN_RULES =
  "Each user manages their own tokens; the workspace owner manages every user's. Another user's tokens are 403 to anyone else.";

export interface UserRouteDeps extends RouteDeps {
  /** The data directory whose token file revocation and rotation respect; absent in some tests. */
  dataDir?: string | undefined;
}

export const userRoutes: FastifyPluginAsyncTypebox<UserRouteDeps> = async (app, { db, dataDir }) => {
  const tokenFile = dataDir === undefined ? undefined : tokenFileOf(dataDir);

  app.get('/v1/me', { schema: { tags: ['users'], summary: 'The caller', response: { 200: User } } }, async (request) =>
    toUser(request.user),
  );

  app.get(
    '/v1/users',
    { schema: { tags: ['users'], summary: 'All users (workspace owner only)', response: { 200: UserList } } },
    async (request) => {
      ownerOnly(request.user.is_workspace_owner);
      return { users: (await listUsers(db)).map(toUser) };
    },
  );

  app.post(
    '/v1/users',
    {
      schema: {
        tags: ['users'],
        summary: 'Create a user and its first token (workspace owner only)',
        body: CreateUserBody,
        response: { 201: CreatedUser },
      },
    },
    async (request, reply) => {
      ownerOnly(request.user.is_workspace_owner);
      const { user, token } = await createUser(db, request.body.name);
      return reply.code(201).send({ user: toUser(user), token });
    },
  );

  app.get(
    '/v1/users/:user_id/tokens',
    {
      schema: {
        tags: ['tokens'],
        summary: "A user's tokens, oldest first (never the tokens themselves)",
        description: TOKEN_RULES,
        params: UserTokensParams,
        response: { 200: TokenList },
      },
    },
    async (request) => ({ tokens: await listTokens(db, request.user, request.params.user_id) }),
  );

  app.post(
    '/v1/users/:user_id/tokens',
    {
      schema: {
        tags: ['tokens'],
        summary: 'Issue another token for a user; the answer holds it once',
        description: TOKEN_RULES,
        params: UserTokensParams,
        response: { 201: createdResponse(CreatedToken) },
      },
    },
    async (request, reply) => {
      const created = await createToken(db, request.user, request.params.user_id);
      return reply.code(201).header('Location', `/v1/tokens/${created.id}`).send(created);
    },
  );

  app.post(
    '/v1/users/:user_id/tokens/rotate',
    {
      schema: {
        tags: ['tokens'],
        summary: "Revoke all of a user's tokens and issue one new one; every session of the user ends",
        description:
          `${TOKEN_RULES} Where the data directory's token file held a revoked token, it gets the new one. ` +
          'Event streams opened with the revoked tokens or the ended sessions are closed.',
        params: UserTokensParams,
        response: { 201: createdResponse(CreatedToken) },
      },
    },
    async (request, reply) => {
      const created = await rotateTokens(db, request.user, request.params.user_id, tokenFile);
      return reply.code(201).header('Location', `/v1/tokens/${created.id}`).send(created);
    },
  );

  app.get(
    '/v1/tokens/:token_id',
    {
      schema: {
        tags: ['tokens'],
        summary: 'One token (never the token itself)',
        description: `${TOKEN_RULES} A token the caller may not manage is 404, like one that does not exist.`,
        params: TokenParams,
        response: { 200: TokenInfo },
      },
    },
    async (request) => findToken(db, request.user, request.params.token_id),
  );

  app.delete(
    '/v1/tokens/:token_id',
    {
      schema: {
        tags: ['tokens'],
        summary: 'Revoke a token; the browser sessions it signed in and its event streams end',
        description:
          `${TOKEN_RULES} A token the caller may not manage is 404, like one that does not exist. ` +
          "The data directory's own token (its token file) is 409: rotate it instead, which rewrites the file.",
        params: TokenParams,
        response: { 204: { type: 'null', description: 'Revoked' } },
      },
    },
    async (request, reply) => {
      await revokeToken(db, request.user, request.params.token_id, tokenFile);
      return reply.code(204).send(null);
    },
  );
};
