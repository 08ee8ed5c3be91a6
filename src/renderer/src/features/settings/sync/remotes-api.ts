import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  CreateRemoteBody,
  Remote,
  RemoteList,
  RemoteTestResult,
  UpdateRemoteBody,
} from '../../../../../shared/api/remotes';
import type { SyncEvent, SyncSummary } from '../../../../../shared/api/sync';
import { ndjsonLines } from '../../../../../shared/ndjson-lines';
import { api, apiGet, send, ServerError } from '../../../lib/api-client';
import { userKeys } from '../../users/users-api';
import { settingsKeys } from '../settings-api';
import { tokenKeys } from '../tokens-api';
import type { SyncProgressEvent } from './sync-words';

const enc = encodeURIComponent;

export const remoteKeys = {
  list: ['remotes'] as const,
};

/** The remotes (workspace owner only: anyone else's 403 is an answer, not a hiccup, so no retries). */
export const useRemotes = () =>
  useQuery({ queryKey: remoteKeys.list, queryFn: () => apiGet<RemoteList>('/v1/remotes'), retry: false });

/** Puts a remote the server answered into the cached list, so the card shows it without asking again. */
function keep(client: QueryClient, remote: Remote): void {
  client.setQueryData<RemoteList>(remoteKeys.list, (list) =>
    list ? { remotes: list.remotes.map((known) => (known.id === remote.id ? remote : known)) } : list,
  );
}

/**
 * What a sync (or removing a remote) can change besides the remotes: pulled scans and their
 * organizations and teams, hence every scan view, chart and filter. Who is signed in, the
 * settings and the tokens stay as they are.
 */
function invalidateStoreData(client: QueryClient): Promise<void> {
  const untouched = new Set<unknown>([userKeys.me[0], settingsKeys.all[0], tokenKeys.all[0], remoteKeys.list[0]]);
  return client.invalidateQueries({ predicate: (query) => !untouched.has(query.queryKey[0]) });
}

export function useAddRemote() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateRemoteBody) => api<Remote>('POST', '/v1/remotes', body),
    onSuccess: () => client.invalidateQueries({ queryKey: remoteKeys.list }),
  });
}

export function useUpdateRemote(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateRemoteBody) => api<Remote>('PATCH', `/v1/remotes/${enc(name)}`, body),
    onSuccess: (remote) => keep(client, remote),
  });
}

/** What the remote pulled stays, as local data: mirrored organizations become editable here. */
export function useRemoveRemote(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<undefined>('DELETE', `/v1/remotes/${enc(name)}`),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: remoteKeys.list });
      await invalidateStoreData(client);
    },
  });
}

/** A test may learn what the remote is (its kind, the remote user): the list is read again either way. */
export function useTestRemote(name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<RemoteTestResult>('POST', `/v1/remotes/${enc(name)}/test`),
    onSettled: () => client.invalidateQueries({ queryKey: remoteKeys.list }),
  });
}

/**
 * POSTs a sync of the remote (joining one already going) and reads its NDJSON answer as it
 * comes: progress lines, then the summary (docs/contract/api.md#remotes). A refusal before the
 * run starts (not the owner, no such remote) is the server's error; a stream that ends without a
 * summary is one too.
 */
export async function streamSync(name: string, onProgress: (event: SyncProgressEvent) => void): Promise<SyncSummary> {
  const response = await send(`/v1/remotes/${enc(name)}/sync`, { method: 'POST', credentials: 'same-origin' });
  if (!response.ok || !response.body) {
    const error: unknown = await response.json().catch(() => undefined);
    throw ServerError.fromBody(response.status, error, `the server answered ${response.status}`);
  }
  for await (const line of ndjsonLines(response.body)) {
    const event = line as SyncEvent;
    // Returning ends the loop, which cancels the rest of the body.
    if (event.type === 'summary') return event.summary;
    onProgress(event);
  }
  throw new ServerError(0, 'network', 'the sync’s answer ended before its summary', []);
}

/** Sync now: the run's latest progress while it goes, its summary when it ends. */
export function useSyncRemote(name: string) {
  const client = useQueryClient();
  const [progress, setProgress] = useState<SyncProgressEvent | null>(null);
  const mutation = useMutation({
    mutationFn: () => {
      setProgress(null);
      return streamSync(name, setProgress);
    },
    // The run saved its summary on the remote whatever happened, and may have stored scans.
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: remoteKeys.list });
      await invalidateStoreData(client);
    },
  });
  return { ...mutation, progress };
}
