import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Team, TeamList, TeamMemberList, TeamMembership } from '../../../../shared/api/teams';
import { api, apiGet } from '../../lib/api-client';
import { orgKeys } from './organizations-api';

const enc = encodeURIComponent;

export const useTeams = (orgId: string) =>
  useQuery({
    queryKey: orgKeys.teams(orgId),
    queryFn: () => apiGet<TeamList>(`/v1/organizations/${enc(orgId)}/teams`),
  });

export const useTeamMembers = (teamId: string) =>
  useQuery({
    queryKey: orgKeys.team(teamId),
    queryFn: () => apiGet<TeamMemberList>(`/v1/teams/${enc(teamId)}/members`),
  });

export function useCreateTeam(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<Team>('POST', `/v1/organizations/${enc(orgId)}/teams`, { name }),
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.teams(orgId) }),
  });
}

function useTeamChanged(orgId: string, teamId: string) {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: orgKeys.team(teamId) });
    await client.invalidateQueries({ queryKey: orgKeys.teams(orgId) });
    // Adding someone from outside makes them an organization member too.
    await client.invalidateQueries({ queryKey: orgKeys.members(orgId) });
  };
}

export function useAddTeamMember(orgId: string, teamId: string) {
  const changed = useTeamChanged(orgId, teamId);
  return useMutation({
    mutationFn: (userId: string) =>
      api<TeamMembership>('POST', `/v1/teams/${enc(teamId)}/members`, { user_id: userId }),
    onSuccess: changed,
  });
}

export function useRemoveTeamMember(orgId: string, teamId: string) {
  const changed = useTeamChanged(orgId, teamId);
  return useMutation({
    mutationFn: (userId: string) => api<undefined>('DELETE', `/v1/teams/${enc(teamId)}/members/${enc(userId)}`),
    onSuccess: changed,
  });
}
