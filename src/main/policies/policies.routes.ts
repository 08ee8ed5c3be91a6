import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OrganizationParams } from '../../shared/api/organizations';
import { Policy } from '../../shared/api/policies';
import type { RouteDeps } from '../http/route-types';
import { readPolicy, replacePolicy } from './policies.service';

const tags = ['policies'];

export const policyRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/organizations/:id/policy',
    { schema: { tags, summary: "The organization's policy", params: OrganizationParams, response: { 200: Policy } } },
    async (request) => readPolicy(db, request.params.id, request.user.id),
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
    async (request) => replacePolicy(db, request.params.id, request.user.id, request.body),
  );
};
