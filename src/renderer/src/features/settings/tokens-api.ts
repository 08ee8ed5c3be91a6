import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedToken, TokenList } from '../../../../shared/api/tokens';
import { api, apiGet } from '../../lib/api-client';

export { useMe, useUsers } from '../users/users-api';

const enc = encodeURIComponent;

export const tokenKeys = {
  all: ['tokens'] as const,
  of: (userId: string) => ['tokens', userId] as const,
};

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
    // The token's user is not in hand here; every list that showed it is refreshed.
    onSuccess: () => client.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api<CreatedToken>('POST', `/v1/users/${enc(userId)}/tokens`),
    onSuccess: (created) => client.invalidateQueries({ queryKey: tokenKeys.of(created.user_id) }),
  });
}

/**
 * Revokes every token of the user and issues one. `own`: the user is the signed-in one, whose
 * session ended with the rotation, so asking the server again would only be refused (401): the
 * list is set to what the server answered, the new token alone.
 */
export function useRotateTokens() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId }: { userId: string; own: boolean }) =>
      api<CreatedToken>('POST', `/v1/users/${enc(userId)}/tokens/rotate`),
    onSuccess: (created, { own }) => {
      if (!own) return client.invalidateQueries({ queryKey: tokenKeys.of(created.user_id) });
      const { id, user_id, created_at, last_used_at, hint } = created;
      client.setQueryData<TokenList>(tokenKeys.of(user_id), {
        tokens: [{ id, user_id, created_at, last_used_at, hint }],
      });
      return undefined;
    },
  });
}
