import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreatedUser, CreateUserBody, User, UserList } from '../../shared/api/users';
import { forbidden } from '../http/domain-error';
import type { RouteDeps } from '../http/route-types';
import { listUsers } from './users.repository';
import { createUser, toUser } from './users.service';

const ownerOnly = (isOwner: number): void => {
  if (!isOwner) throw forbidden('only the workspace owner may manage users');
};

export const userRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
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
};
