import { TokenStats, TokenStatsQuery } from '../../shared/api/stats';
import type { App, RouteDeps } from '../server/types';
import { tokenStats } from './stats.service';

export function registerStatsRoutes(app: App, { db }: RouteDeps): void {
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
}
