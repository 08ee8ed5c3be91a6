import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Member, MemberList, Organization, OrganizationList } from '../../../../shared/api/organizations';
import type { Role } from '../../../../shared/api/common';
import { api, apiGet } from '../../lib/api-client';
import { userKeys } from '../users/users-api';

export { useUsers } from '../users/users-api';

const enc = encodeURIComponent;

export const orgKeys = {
  list: ['organizations'] as const,
  detail: (id: string) => ['organization', id] as const,
  members: (id: string) => ['organization', id, 'members'] as const,
  teams: (id: string) => ['organization', id, 'teams'] as const,
  policy: (id: string) => ['organization', id, 'policy'] as const,
  team: (teamId: string) => ['organization', 'team', teamId, 'members'] as const,
  /** Every team's members, of any organization. */
  teamMembers: ['organization', 'team'] as const,
};

const organizationList = () => apiGet<OrganizationList>('/v1/organizations');

/** The list every view names organizations from (this page, the scans filter, a scan), so a rename shows everywhere. */
export const useOrganizations = () => useQuery({ queryKey: orgKeys.list, queryFn: organizationList });

/** One organization's name from that same list; undefined while it loads or if it is not visible. */
export const useOrganizationName = (organizationId: string | null) =>
  useQuery({
    queryKey: orgKeys.list,
    queryFn: organizationList,
    enabled: organizationId !== null,
    select: (list: OrganizationList) =>
      list.organizations.find((organization) => organization.id === organizationId)?.name,
  });

export const useOrganization = (id: string) =>
  useQuery({ queryKey: orgKeys.detail(id), queryFn: () => apiGet<Organization>(`/v1/organizations/${enc(id)}`) });

export const useMembers = (id: string) =>
  useQuery({
    queryKey: orgKeys.members(id),
    queryFn: () => apiGet<MemberList>(`/v1/organizations/${enc(id)}/members`),
  });

export function useCreateOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<Organization>('POST', '/v1/organizations', { name }),
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.list }),
  });
}

export function useRenameOrganization(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<Organization>('PATCH', `/v1/organizations/${enc(id)}`, { name }),
    onSuccess: (organization) => {
      client.setQueryData(orgKeys.detail(id), organization);
      return client.invalidateQueries({ queryKey: orgKeys.list });
    },
  });
}

export function useDeleteOrganization(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<undefined>('DELETE', `/v1/organizations/${enc(id)}`),
    onSuccess: () => {
      client.removeQueries({ queryKey: orgKeys.detail(id) });
      // Its scans went with it.
      return client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== userKeys.me[0] });
    },
  });
}

function useInvalidateOrg(id: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: orgKeys.detail(id) });
}

export function useSetMemberRole(id: string) {
  const invalidate = useInvalidateOrg(id);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      api<Member>('PUT', `/v1/organizations/${enc(id)}/members/${enc(userId)}`, { role }),
    onSuccess: invalidate,
  });
}

export function useRemoveMember(id: string) {
  const invalidate = useInvalidateOrg(id);
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api<undefined>('DELETE', `/v1/organizations/${enc(id)}/members/${enc(userId)}`),
    onSuccess: async () => {
      await invalidate();
      // Removing a member also removes them from the org's teams.
      await client.invalidateQueries({ queryKey: orgKeys.teamMembers });
    },
  });
}
