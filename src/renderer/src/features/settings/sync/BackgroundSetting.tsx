import { type FormEvent, useState } from 'react';
import type { Remote } from '../../../../../shared/api/remotes';
import { ErrorMessage } from '../../../components/QueryState';
import { IntervalField } from './RemoteFields';
import { useUpdateRemote } from './remotes-api';

/**
 * Background sync on or off (saved as it is switched) and its interval (saved with its button):
 * while the app or `scandesk serve` runs, the remote is synced that often, and sooner after a run
 * that could not reach it, so that a returning network is noticed.
 */
export function BackgroundSetting({ remote }: { remote: Remote }) {
  const update = useUpdateRemote(remote.name);
  const [minutes, setMinutes] = useState(String(remote.interval_minutes));
  // The box follows the click at once (the answer comes later), and the server's value when it changes.
  const [on, setOn] = useState(remote.background);
  const [saved, setSaved] = useState(remote.background);
  if (saved !== remote.background) {
    setSaved(remote.background);
    setOn(remote.background);
  }
  const changed = Number(minutes) !== remote.interval_minutes;

  const save = (event: FormEvent): void => {
    event.preventDefault();
    update.mutate({ interval_minutes: Number(minutes) });
  };

  return (
    <form className="sync-row" onSubmit={save}>
      <label className="settings-field">
        <input
          type="checkbox"
          checked={on}
          disabled={update.isPending}
          onChange={(event) => {
            const background = event.target.checked;
            setOn(background);
            update.mutate({ background }, { onError: () => setOn(remote.background) });
          }}
        />{' '}
        Sync {remote.name} in the background
      </label>
      <IntervalField value={minutes} onChange={setMinutes} />
      <button type="submit" disabled={!changed || update.isPending}>
        Save interval
      </button>
      {update.error ? <ErrorMessage error={update.error} /> : null}
    </form>
  );
}
