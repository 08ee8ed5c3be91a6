import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OrganizationParams } from '../../shared/api/organizations';
import { Policy } from '../../shared/api/policies';
import { currentTimestamp } from '../../shared/time';
import { requireRole } from '../organizations/access';
import type { RouteDeps } from '../http/route-types';
import { findPolicy, savePolicy } from './policies.repository';

const tags = ['policies'];

export const policyRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/organizations/:id/policy',
    { schema: { tags, summary: "The organization's policy", params: OrganizationParams, response: { 200: Policy } } },
    async (request) => {
      await requireRole(db, request.params.id, request.user.id, 'member');
      return findPolicy(db, request.params.id);
    },
  );

  app.put(
    '/v1/organizations/:id/policy',
    {
      schema: {
        tags,
        summary: 'Replace the policy (owner, admin); applies to scans submitted from now on',
        params: OrganizationParams,
        body: Policy,
        response: { 200: Policy },
      },
    },
    async (request) =>
      db.transaction().execute(async (trx) => {
        await requireRole(trx, request.params.id, request.user.id, 'admin');
        await savePolicy(trx, request.params.id, request.body, currentTimestamp());
        return findPolicy(trx, request.params.id);
      }),
  );
};
