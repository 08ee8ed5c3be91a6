import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SyncDigest, SyncDigestQuery } from '../../../shared/api/sync';
import type { RouteDeps } from '../../http/route-types';
import { readDigest } from './digest.service';

const tags = ['sync'];

export const digestRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/sync/digest',
    {
      schema: {
        tags,
        summary: 'Per organization you are a member of: how many scans you can see there, and a digest of their days',
        description:
          'Read from the day rollups. With `organization_id`, that organization alone, with its days ' +
          '(UTC day, scans, tokens, violations). A store that syncs from this one compares it with what it pulled.',
        querystring: SyncDigestQuery,
        response: { 200: SyncDigest },
      },
    },
    async (request) => readDigest(db, request.user.id, request.query),
  );
};
