import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SyncChanges, SyncChangesQuery } from '../../../shared/api/sync';
import type { RouteDeps } from '../../http/route-types';
import { readChanges } from './changes.service';

const tags = ['sync'];

export const changeRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/sync/changes',
    {
      schema: {
        tags,
        summary: 'The scans you can see that changed (stored, or re-evaluated) since a cursor, a page at a time',
        description:
          'Rules the schema cannot state: a cursor that is malformed, or from another store or user, or ahead of this ' +
          'store, is 400 `validation_failed` naming `cursor`; the client then starts over without one. A scan comes ' +
          'again after its violations are re-evaluated; an organization you come to own or administer is read from its start.',
        querystring: SyncChangesQuery,
        response: { 200: SyncChanges },
      },
    },
    async (request) => readChanges(db, request.user.id, request.query),
  );
};
