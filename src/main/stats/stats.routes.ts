import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OriginList } from '../../shared/api/origins';
import { TokenStats, TokenStatsQuery, ViolationStats, ViolationStatsQuery } from '../../shared/api/stats';
import type { RouteDeps } from '../http/route-types';
import { visibleOrigins } from './origins.repository';
import { tokenStats, violationStats } from './stats.service';

export const statsRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/stats/tokens',
    {
      schema: {
        tags: ['stats'],
        summary: 'Tokens, scans and violations per hour or day over the visible scans, for charts',
        querystring: TokenStatsQuery,
        response: { 200: TokenStats },
      },
    },
    async (request) => tokenStats(db, request.user.id, request.query),
  );

  app.get(
    '/v1/stats/violations',
    {
      schema: {
        tags: ['stats'],
        summary: 'Violation counts by severity and by rule over the visible scans, for charts',
        querystring: ViolationStatsQuery,
        response: { 200: ViolationStats },
      },
    },
    async (request) => violationStats(db, request.user.id, request.query),
  );

  app.get(
    '/v1/stats/origins',
    {
      schema: {
        tags: ['stats'],
        summary:
          "Where the visible scans come from (`local`, each remote), with how many each: the origin filter's choices",
        response: { 200: OriginList },
      },
    },
    async (request) => visibleOrigins(db, request.user.id),
  );
};
