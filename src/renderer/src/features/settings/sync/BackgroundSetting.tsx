import { type FormEvent, useState } from 'react';
import type { Remote } from '../../../../../shared/api/remotes';
import { ErrorMessage } from '../../../components/QueryState';
import { useUpdateRemote } from './remotes-api';

/**
 * Background sync on or off (saved as it is switched) and its interval (saved with its button):
 * while the app or `scandesk serve` runs, the remote is synced that often, and sooner after a run
 * that could not reach it, so that a returning network is noticed.
 */
export function BackgroundSetting({ remote }: { remote: Remote }) {
  const update = useUpdateRemote(remote.name);
  const [minutes, setMinutes] = useState(String(remote.interval_minutes));
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
          checked={remote.background}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ background: event.target.checked })}
        />{' '}
        Sync {remote.name} in the background
      </label>
      <label className="settings-field">
        Minutes between syncs{' '}
        <input
          type="number"
          className="sync-minutes"
          min={1}
          max={1440}
          required
          value={minutes}
          onChange={(event) => setMinutes(event.target.value)}
        />
      </label>
      <button type="submit" disabled={!changed || update.isPending}>
        Save interval
      </button>
      {update.error ? <ErrorMessage error={update.error} /> : null}
    </form>
  );
}
