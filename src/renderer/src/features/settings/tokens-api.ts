import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TokenList } from '../../../../shared/api/tokens';
import type { User, UserList } from '../../../../shared/api/users';
import { api, apiGet } from '../../lib/api-client';

const enc = encodeURIComponent;

export const tokenKeys = {
  all: ['tokens'] as const,
  of: (userId: string) => ['tokens', userId] as const,
};

export const useMe = () => useQuery({ queryKey: ['me'], queryFn: () => api<User>('GET', '/v1/me'), retry: false });

/** Every user, for the workspace owner's picker; anyone else gets 403 and manages only their own. */
export const useUsers = () =>
  useQuery({ queryKey: ['users'], queryFn: () => apiGet<UserList>('/v1/users'), retry: false });

export const useTokens = (userId: string | undefined) =>
  useQuery({
    queryKey: tokenKeys.of(userId ?? ''),
    queryFn: () => apiGet<TokenList>(`/v1/users/${enc(userId!)}/tokens`),
    enabled: userId !== undefined,
    retry: false,
  });

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => api<undefined>('DELETE', `/v1/tokens/${enc(tokenId)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
