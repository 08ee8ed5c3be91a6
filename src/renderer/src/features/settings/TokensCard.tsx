import { useEffect, useId, useRef, useState } from 'react';
import type { CreatedToken } from '../../../../shared/api/tokens';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { ZonedTime, ZonedTitle } from '../../components/ZonedTime';
import { CopyButton } from './CopyButton';
import { useEndedSession } from './ended-session-context';
import { useCreateToken, useMe, useRevokeToken, useRotateTokens, useTokens, useUsers } from './tokens-api';

interface Issued {
  created: CreatedToken;
  /** Made by rotating the signed-in user's own tokens: this browser's session ended with them. */
  endedSession: boolean;
}

/**
 * The signed-in user's tokens, and for the workspace owner anyone's: when each was made and last
 * used, Revoke, New token and Rotate all. Listed tokens are never shown (the server keeps only
 * their hashes); a new one is shown here once, until the user dismisses it or picks another user.
 */
export function TokensCard() {
  const me = useMe();
  const users = useUsers();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const userId = chosen ?? me.data?.id;
  const tokens = useTokens(userId);
  const revoke = useRevokeToken();
  const create = useCreateToken();
  const rotate = useRotateTokens();
  const [issued, setIssued] = useState<Issued | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const { hold, release } = useEndedSession();
  const list = tokens.data?.tokens ?? [];
  const others = users.data?.users ?? [];
  const own = userId !== undefined && userId === me.data?.id;
  const name = own ? 'your' : `${others.find((user) => user.id === userId)?.name ?? 'this user'}’s`;
  const busy = revoke.isPending || create.isPending || rotate.isPending;
  const endedSession = issued?.endedSession ?? false;

  useEffect(() => {
    if (!endedSession) return;
    hold();
    // Dismissed, or the page left: the sign-in screen may come now.
    return release;
  }, [endedSession, hold, release]);

  const choose = (id: string): void => {
    setChosen(id);
    setIssued(undefined);
    setConfirming(false);
    revoke.reset();
    create.reset();
    rotate.reset();
  };

  const issue = (): void => {
    if (userId === undefined) return;
    setIssued(undefined);
    create.mutate(userId, { onSuccess: (created) => setIssued({ created, endedSession: false }) });
  };

  const rotateAll = (): void => {
    if (userId === undefined) return;
    setIssued(undefined);
    rotate.mutate(
      { userId, own },
      {
        onSuccess: (created) => setIssued({ created, endedSession: own }),
        onSettled: () => setConfirming(false),
      },
    );
  };

  const shown = issued !== undefined && issued.created.user_id === userId ? issued : undefined;

  return (
    <div className="card settings-card">
      <h2 id="tokens-heading">Tokens</h2>
      {shown?.endedSession ? (
        <NewToken issued={shown} onDismiss={() => setIssued(undefined)} />
      ) : (
        <>
          <p className="state">
            Revoking a token signs out the browsers it signed in. Rotating replaces all of a user&apos;s tokens with one
            new one; where the data directory&apos;s token file held one of them, it gets the new one.
          </p>
          {others.length > 0 && (
            <label className="settings-field">
              Tokens of{' '}
              <select value={userId ?? ''} onChange={(event) => choose(event.target.value)}>
                {others.map((user) => (
                  <option key={user.id} value={user.id}>
                    {user.name}
                    {user.id === me.data?.id ? ' (you)' : ''}
                  </option>
                ))}
              </select>
            </label>
          )}
          {shown ? <NewToken issued={shown} onDismiss={() => setIssued(undefined)} /> : null}
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
                  <th scope="col">
                    <ZonedTitle>Created</ZonedTitle>
                  </th>
                  <th scope="col">
                    <ZonedTitle>Last used</ZonedTitle>
                  </th>
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
                    <td>
                      <ZonedTime value={token.created_at} />
                    </td>
                    <td>{token.last_used_at === null ? 'never' : <ZonedTime value={token.last_used_at} />}</td>
                    <td>
                      <button
                        type="button"
                        className="danger"
                        disabled={busy}
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
          {userId !== undefined && (
            <div className="token-actions">
              <button type="button" disabled={busy} onClick={issue}>
                {create.isPending ? 'Issuing…' : 'New token'}
              </button>
              {confirming ? null : (
                <button type="button" className="danger" disabled={busy} onClick={() => setConfirming(true)}>
                  Rotate all…
                </button>
              )}
            </div>
          )}
          {confirming ? (
            <ConfirmRotate
              whose={name}
              own={own}
              pending={rotate.isPending}
              onConfirm={rotateAll}
              onCancel={() => setConfirming(false)}
            />
          ) : null}
          {revoke.error ? <ErrorMessage error={revoke.error} /> : null}
          {create.error ? <ErrorMessage error={create.error} /> : null}
          {rotate.error ? <ErrorMessage error={rotate.error} /> : null}
        </>
      )}
    </div>
  );
}

function ConfirmRotate({
  whose,
  own,
  pending,
  onConfirm,
  onCancel,
}: {
  whose: string;
  own: boolean;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const textId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  // The safe choice takes the focus: Enter does not rotate by accident.
  useEffect(() => {
    cancel.current?.focus();
  }, []);
  return (
    <div className="token-confirm" role="group" aria-labelledby={textId}>
      <p id={textId}>
        Rotate all of {whose} tokens? Every one of them stops working, one new token is issued, and every browser signed
        in {own ? 'as you' : 'as this user'} is signed out
        {own
          ? ', this one too: copy the new token before you leave this card, then sign in again with it.'
          : '. Scripts and the command line need the new token.'}
      </p>
      <button type="button" className="danger" disabled={pending} onClick={onConfirm}>
        {pending ? 'Rotating…' : 'Rotate all tokens'}
      </button>{' '}
      <button type="button" ref={cancel} disabled={pending} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** A token just issued, shown this once: the server keeps only its hash. */
function NewToken({ issued, onDismiss }: { issued: Issued; onDismiss: () => void }) {
  const headingId = useId();
  const region = useRef<HTMLDivElement>(null);
  const { token } = issued.created;
  useEffect(() => {
    region.current?.focus();
  }, []);

  const signIn = (): void => {
    const url = new URL(window.location.href);
    url.searchParams.set('token', token);
    window.location.assign(url.toString());
  };

  return (
    <div className="token-new" role="region" aria-labelledby={headingId} tabIndex={-1} ref={region}>
      <h3 id={headingId}>New token</h3>
      {issued.endedSession ? (
        <p>
          Your tokens were rotated: the old ones no longer work, and every browser signed in with them is signed out,
          this one too.
        </p>
      ) : null}
      <p>Copy it now: it will not be shown again.</p>
      <p>
        <code data-testid="new-token">{token}</code> <CopyButton value={token} label="new token" />
      </p>
      {issued.endedSession ? (
        <>
          <button type="button" className="primary" onClick={signIn}>
            Sign in with the new token
          </button>{' '}
          <button type="button" onClick={onDismiss}>
            Done, sign out
          </button>
        </>
      ) : (
        <button type="button" onClick={onDismiss}>
          Done
        </button>
      )}
    </div>
  );
}
