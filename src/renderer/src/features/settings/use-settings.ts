import { useMutation, useQuery } from '@tanstack/react-query';
import type { Settings } from '../../../../shared/api/settings';
import { api, apiGet } from '../../lib/api-client';
import { settingsKeys } from './settings-api';

export function useSettings() {
  // A 403 (not the workspace owner) is an answer, not a hiccup: no retries.
  return useQuery({ queryKey: settingsKeys.all, queryFn: () => apiGet<Settings>('/v1/settings'), retry: false });
}

export function useSignOut() {
  return useMutation({
    mutationFn: () => api<undefined>('DELETE', '/v1/session'),
    // The session cookie is gone: a reload lands on the sign-in screen with no stale data.
    onSuccess: () => window.location.reload(),
  });
}
