import { useQuery } from '@tanstack/react-query';
import type { User, UserList } from '../../../../shared/api/users';
import { api, apiGet } from '../../lib/api-client';

export const userKeys = {
  me: ['me'] as const,
  list: ['users'] as const,
};

/** Who is signed in. A 401 is an answer (the sign-in screen), not a hiccup: no retries. */
export const meQuery = { queryKey: userKeys.me, queryFn: () => api<User>('GET', '/v1/me'), retry: false } as const;
export const useMe = () => useQuery(meQuery);

/** Every user, for the workspace owner's pickers; anyone else gets 403 and types an id or manages only their own. */
export const useUsers = () =>
  useQuery({ queryKey: userKeys.list, queryFn: () => apiGet<UserList>('/v1/users'), retry: false });
