import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Member,
  MemberList,
  MemberParams,
  MemberRoleBody,
  Organization,
  OrganizationBody,
  OrganizationList,
  OrganizationParams,
} from '../../shared/api/organizations';
import { createdResponse } from '../http/created-response';
import type { RouteDeps } from '../http/route-types';
import { listOrganizationsOfUser } from './organizations.repository';
import * as service from './organizations.service';

const tags = ['organizations'];

export const organizationRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/organizations',
    { schema: { tags, summary: "The caller's organizations", response: { 200: OrganizationList } } },
    async (request) => ({ organizations: await listOrganizationsOfUser(db, request.user.id) }),
  );

  app.post(
    '/v1/organizations',
    {
      schema: {
        tags,
        summary: 'Create an organization',
        body: OrganizationBody,
        response: { 201: createdResponse(Organization) },
      },
    },
    async (request, reply) => {
      const organization = await service.createOrganization(db, request.user.id, request.body.name);
      return reply.code(201).header('Location', `/v1/organizations/${organization.id}`).send(organization);
    },
  );

  app.get(
    '/v1/organizations/:id',
    { schema: { tags, summary: 'Get an organization', params: OrganizationParams, response: { 200: Organization } } },
    async (request) => service.readOrganization(db, request.user.id, request.params.id),
  );

  app.patch(
    '/v1/organizations/:id',
    {
      schema: {
        tags,
        summary: 'Rename an organization (owner, admin)',
        params: OrganizationParams,
        body: OrganizationBody,
        response: { 200: Organization },
      },
    },
    async (request) => service.renameOrganization(db, request.user.id, request.params.id, request.body.name),
  );

  app.delete(
    '/v1/organizations/:id',
    {
      schema: {
        tags,
        summary: 'Delete an organization with its teams, policy and scans (owner)',
        params: OrganizationParams,
        response: { 204: { type: 'null', description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      await service.deleteOrganization(db, request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/organizations/:id/members',
    { schema: { tags, summary: 'Members and their roles', params: OrganizationParams, response: { 200: MemberList } } },
    async (request) => ({ members: await service.listMembers(db, request.user.id, request.params.id) }),
  );

  app.put(
    '/v1/organizations/:id/members/:user_id',
    {
      schema: {
        tags,
        summary: "Add a member or change a member's role (owner)",
        params: MemberParams,
        body: MemberRoleBody,
        response: { 200: Member },
      },
    },
    async (request) =>
      service.setMemberRole(db, request.user.id, request.params.id, request.params.user_id, request.body.role),
  );

  app.delete(
    '/v1/organizations/:id/members/:user_id',
    {
      schema: {
        tags,
        summary: 'Remove a member from the organization and its teams (owner, admin)',
        params: MemberParams,
        response: { 204: { type: 'null', description: 'Removed' } },
      },
    },
    async (request, reply) => {
      await service.removeMember(db, request.user.id, request.params.id, request.params.user_id);
      return reply.code(204).send(null);
    },
  );
};
