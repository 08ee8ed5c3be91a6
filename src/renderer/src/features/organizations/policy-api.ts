import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Policy } from '../../../../shared/api/policies';
import { api, apiGet } from '../../lib/api-client';
import { orgKeys } from './organizations-api';

const path = (orgId: string): string => `/v1/organizations/${encodeURIComponent(orgId)}/policy`;

export const usePolicy = (orgId: string) =>
  useQuery({ queryKey: orgKeys.policy(orgId), queryFn: () => apiGet<Policy>(path(orgId)) });

export function useSavePolicy(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (policy: Policy) => api<Policy>('PUT', path(orgId), policy),
    onSuccess: (saved) => client.setQueryData(orgKeys.policy(orgId), saved),
  });
}
