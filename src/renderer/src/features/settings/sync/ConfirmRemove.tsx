import { useEffect, useId, useRef } from 'react';
import { ErrorMessage } from '../../../components/QueryState';
import { useRemoveRemote } from './remotes-api';

/** Remove asks first; the safe choice takes the focus, so Enter does not remove by accident. */
export function ConfirmRemove({ name, onCancel }: { name: string; onCancel: () => void }) {
  const remove = useRemoveRemote(name);
  const textId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancel.current?.focus();
  }, []);
  return (
    <div className="token-confirm" role="group" aria-labelledby={textId}>
      <p id={textId}>
        Remove the remote {name}? Its token is deleted and it is no longer synced. The scans, organizations and teams
        pulled from it stay here, as local data.
      </p>
      <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
        {remove.isPending ? 'Removing…' : `Remove ${name}`}
      </button>{' '}
      <button type="button" ref={cancel} disabled={remove.isPending} onClick={onCancel}>
        Cancel
      </button>
      {remove.error ? <ErrorMessage error={remove.error} /> : null}
    </div>
  );
}
