import { useState } from 'react';
import { QueryState } from '../../../components/QueryState';
import { ServerError } from '../../../lib/api-client';
import { AddRemoteForm } from './AddRemoteForm';
import { RemoteItem } from './RemoteItem';
import { useRemotes } from './remotes-api';

/**
 * The remotes this workspace syncs with (the workspace owner's): each with its last sync and what
 * waits to go up, Test, Sync now, background sync and Remove; and a form to add one. A remote's
 * token goes to the server once and is never read back.
 */
export function SyncCard() {
  const remotes = useRemotes();
  // The remote just added: it is tested at once, as `scandesk remote add` does.
  const [added, setAdded] = useState<string | null>(null);
  const forbidden = remotes.error instanceof ServerError && remotes.error.status === 403;
  const list = remotes.data?.remotes ?? [];

  return (
    <div className="card settings-card">
      <h2 id="sync-heading">Sync</h2>
      <p className="state">
        Pull the scans a team server can show you, to inspect them offline, and push the scans submitted here while
        offline when it is reachable again. Remotes are also managed with <code>scandesk remote</code> and synced with{' '}
        <code>scandesk sync</code>.
      </p>
      {forbidden ? (
        <p className="state">Only the workspace owner can manage remotes.</p>
      ) : (
        <>
          <QueryState
            isPending={remotes.isPending}
            error={remotes.error}
            isEmpty={remotes.isSuccess && list.length === 0}
            empty="No remotes yet: add one below."
          >
            <ul className="sync-remotes" aria-labelledby="sync-heading">
              {list.map((remote) => (
                <li key={remote.id}>
                  <RemoteItem remote={remote} justAdded={remote.name === added} />
                </li>
              ))}
            </ul>
          </QueryState>
          {remotes.isSuccess ? <AddRemoteForm onAdded={(remote) => setAdded(remote.name)} /> : null}
        </>
      )}
    </div>
  );
}
