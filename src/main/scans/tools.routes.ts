import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ToolList, ToolListQuery } from '../../shared/api/tools';
import type { RouteDeps } from '../http/route-types';
import { listTools } from './tools.service';

export const toolRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/tools',
    {
      schema: {
        tags: ['scans'],
        summary: 'The tools of the visible scans, each with its number of scans, for filters and their suggestions',
        description:
          '`prefix` keeps the tools whose names start with it, letter case aside, as `tool_prefix` filters GET /v1/scans.',
        querystring: ToolListQuery,
        response: { 200: ToolList },
      },
    },
    async (request) => listTools(db, request.user.id, request.query),
  );
};
