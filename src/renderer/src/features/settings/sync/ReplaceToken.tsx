import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { Remote } from '../../../../../shared/api/remotes';
import { ErrorMessage } from '../../../components/QueryState';
import { TokenInput } from './RemoteFields';
import { useUpdateRemote } from './remotes-api';

/** A new token for the remote (the old one refused, or rotated there): written over the old, never shown. */
export function ReplaceToken({ remote, onDone }: { remote: Remote; onDone: (replaced: boolean) => void }) {
  const update = useUpdateRemote(remote.name);
  const headingId = useId();
  const [token, setToken] = useState('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    field.current?.focus();
  }, []);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    update.mutate({ token: token.trim() }, { onSuccess: () => onDone(true) });
  };

  return (
    <form className="token-confirm" aria-labelledby={headingId} onSubmit={submit}>
      <p id={headingId}>A new token for {remote.name}; it is tested once saved.</p>
      <label className="org-field">
        New token
        <TokenInput inputRef={field} value={token} onChange={setToken} />
      </label>
      <div className="token-actions">
        <button type="submit" className="primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save token'}
        </button>
        <button type="button" disabled={update.isPending} onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
      {update.error ? <ErrorMessage error={update.error} /> : null}
    </form>
  );
}
