import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddTeamMemberBody,
  OrgTeamsParams,
  Team,
  TeamBody,
  TeamList,
  TeamMemberList,
  TeamMemberParams,
  TeamMembership,
  TeamParams,
} from '../../shared/api/teams';
import { createdResponse } from '../http/created-response';
import type { RouteDeps } from '../http/route-types';
import * as service from './teams.service';

const tags = ['teams'];

export const teamRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/organizations/:org_id/teams',
    { schema: { tags, summary: 'Teams of an organization', params: OrgTeamsParams, response: { 200: TeamList } } },
    async (request) => ({ teams: await service.listTeams(db, request.user.id, request.params.org_id) }),
  );

  app.post(
    '/v1/organizations/:org_id/teams',
    {
      schema: {
        tags,
        summary: 'Create a team (owner, admin)',
        params: OrgTeamsParams,
        body: TeamBody,
        response: { 201: createdResponse(Team) },
      },
    },
    async (request, reply) => {
      const team = await service.createTeam(db, request.user.id, request.params.org_id, request.body.name);
      return reply.code(201).header('Location', `/v1/teams/${team.id}`).send(team);
    },
  );

  app.get(
    '/v1/teams/:id',
    { schema: { tags, summary: 'Get a team', params: TeamParams, response: { 200: Team } } },
    async (request) => service.readTeam(db, request.user.id, request.params.id),
  );

  app.get(
    '/v1/teams/:id/members',
    { schema: { tags, summary: 'Members of a team', params: TeamParams, response: { 200: TeamMemberList } } },
    async (request) => ({ members: await service.listTeamMembers(db, request.user.id, request.params.id) }),
  );

  app.post(
    '/v1/teams/:id/members',
    {
      schema: {
        tags,
        summary: 'Add a user to a team (owner, admin); 200 if already a member',
        params: TeamParams,
        body: AddTeamMemberBody,
        response: { 200: TeamMembership, 201: TeamMembership },
      },
    },
    async (request, reply) => {
      const { created, membership } = await service.addTeamMember(
        db,
        request.user.id,
        request.params.id,
        request.body.user_id,
      );
      return reply.code(created ? 201 : 200).send(membership);
    },
  );

  app.delete(
    '/v1/teams/:id/members/:user_id',
    {
      schema: {
        tags,
        summary: 'Remove a user from a team (owner, admin)',
        params: TeamMemberParams,
        response: { 204: { type: 'null', description: 'Removed' } },
      },
    },
    async (request, reply) => {
      await service.removeTeamMember(db, request.user.id, request.params.id, request.params.user_id);
      return reply.code(204).send(null);
    },
  );
};
