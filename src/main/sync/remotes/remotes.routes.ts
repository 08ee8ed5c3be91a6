import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateRemoteBody,
  Remote,
  RemoteList,
  RemoteParams,
  RemoteTestResult,
  UpdateRemoteBody,
} from '../../../shared/api/remotes';
import { createdResponse } from '../../http/created-response';
import type { RouteDeps } from '../../http/route-types';
import {
  createRemote,
  deleteRemote,
  listRemotes,
  readRemote,
  requireWorkspaceOwner,
  testRemote,
  updateRemote,
} from './remotes.service';

const tags = ['remotes'];

export interface RemoteRouteDeps extends RouteDeps {
  /** Where the remotes' token files live; without one (some tests) a token cannot be kept. */
  dataDir?: string | undefined;
}

const TOKEN_RULE = "The remote's token is kept in a 0600 file of the data directory and never answered.";

export const remoteRoutes: FastifyPluginAsyncTypebox<RemoteRouteDeps> = async (app, { db, dataDir }) => {
  // Every remote route is the workspace owner's: a remote fills and speaks for the owner's store.
  app.addHook('onRequest', async (request) => requireWorkspaceOwner(request.user));

  app.get(
    '/v1/remotes',
    {
      schema: {
        tags,
        summary: 'The remotes this store syncs with (workspace owner only)',
        response: { 200: RemoteList },
      },
    },
    async () => ({ remotes: await listRemotes(db) }),
  );

  app.post(
    '/v1/remotes',
    {
      schema: {
        tags,
        summary: 'Add a remote (workspace owner only)',
        description: `${TOKEN_RULE} 409 when the name is taken; 400 naming \`url\` when the URL rule refuses it.`,
        body: CreateRemoteBody,
        response: { 201: createdResponse(Remote) },
      },
    },
    async (request, reply) => {
      const remote = await createRemote(db, dataDir, request.user.id, request.body);
      return reply.code(201).header('Location', `/v1/remotes/${remote.name}`).send(remote);
    },
  );

  app.get(
    '/v1/remotes/:name',
    { schema: { tags, summary: 'A remote (workspace owner only)', params: RemoteParams, response: { 200: Remote } } },
    async (request) => readRemote(db, request.params.name),
  );

  app.patch(
    '/v1/remotes/:name',
    {
      schema: {
        tags,
        summary: "Change a remote's URL, token, CA or background sync (workspace owner only)",
        description: `${TOKEN_RULE} A new URL makes the next sync read the remote from its start.`,
        params: RemoteParams,
        body: UpdateRemoteBody,
        response: { 200: Remote },
      },
    },
    async (request) => updateRemote(db, dataDir, request.params.name, request.body),
  );

  app.delete(
    '/v1/remotes/:name',
    {
      schema: {
        tags,
        summary: 'Remove a remote and its token; what it pulled stays, as local data (workspace owner only)',
        description: '409 while a sync with it is running.',
        params: RemoteParams,
        response: { 204: { type: 'null', description: 'Removed' } },
      },
    },
    async (request, reply) => {
      await deleteRemote(db, dataDir, request.params.name);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/remotes/:name/test',
    {
      schema: {
        tags,
        summary: 'Reach the remote with its token and say what is there (workspace owner only)',
        description:
          '502 `bad_gateway` when the remote cannot be reached, is not trusted, refuses the token or is not a server ' +
          'it can sync with: the message says which in a sentence, the one detail names the kind ' +
          '(`unreachable`, `untrusted`, `refused`, `broken`).',
        params: RemoteParams,
        response: { 200: RemoteTestResult },
      },
    },
    async (request) => testRemote(db, dataDir, request.params.name),
  );
};
