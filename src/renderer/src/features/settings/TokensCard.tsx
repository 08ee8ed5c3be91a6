import { useState } from 'react';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { formatDateTime } from '../../lib/format';
import { useMe, useRevokeToken, useTokens, useUsers } from './tokens-api';

/**
 * The signed-in user's tokens, and for the workspace owner anyone's: when each was made and last
 * used, and Revoke. The tokens themselves are never shown (the server keeps only their hashes).
 */
export function TokensCard() {
  const me = useMe();
  const users = useUsers();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const userId = chosen ?? me.data?.id;
  const tokens = useTokens(userId);
  const revoke = useRevokeToken();
  const list = tokens.data?.tokens ?? [];
  const others = users.data?.users ?? [];

  return (
    <div className="card settings-card">
      <h2 id="tokens-heading">Tokens</h2>
      <p className="state">
        Revoking a token signs out the browsers it signed in. Rotate the data directory&apos;s own token with{' '}
        <code>scandesk token --rotate</code>.
      </p>
      {others.length > 0 && (
        <label className="settings-field">
          Tokens of{' '}
          <select value={userId ?? ''} onChange={(event) => setChosen(event.target.value)}>
            {others.map((user) => (
              <option key={user.id} value={user.id}>
                {user.name}
                {user.id === me.data?.id ? ' (you)' : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <QueryState
        isPending={tokens.isPending}
        error={me.error ?? tokens.error}
        isEmpty={tokens.isSuccess && list.length === 0}
        empty="No tokens: this user cannot use the command line until the owner issues one."
      >
        <table className="org-table" aria-labelledby="tokens-heading">
          <thead>
            <tr>
              <th scope="col">Token</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((token) => (
              <tr key={token.id}>
                <td>
                  <code>{token.hint ?? token.id}</code>
                </td>
                <td>{formatDateTime(token.created_at)}</td>
                <td>{token.last_used_at === null ? 'never' : formatDateTime(token.last_used_at)}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    disabled={revoke.isPending}
                    aria-label={`Revoke token ${token.hint ?? token.id}`}
                    onClick={() => revoke.mutate(token.id)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </QueryState>
      {revoke.error ? <ErrorMessage error={revoke.error} /> : null}
    </div>
  );
}
