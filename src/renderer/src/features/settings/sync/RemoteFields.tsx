import type { Ref } from 'react';
import { INTERVAL_MINUTES_BOUNDS } from '../../../../../shared/api/remotes';

/** A remote's token: a password field, never filled from the server (the API never answers it). */
export function TokenInput({
  value,
  onChange,
  id,
  describedBy,
  inputRef,
}: {
  value: string;
  onChange: (token: string) => void;
  id?: string;
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <input
      ref={inputRef}
      id={id}
      type="password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      autoComplete="new-password"
      spellCheck={false}
      aria-describedby={describedBy}
    />
  );
}

/** Minutes between background syncs, bounded as the API bounds them. */
export function IntervalField({ value, onChange }: { value: string; onChange: (minutes: string) => void }) {
  return (
    <label className="settings-field">
      Minutes between syncs{' '}
      <input
        type="number"
        className="sync-minutes"
        min={INTERVAL_MINUTES_BOUNDS.minimum}
        max={INTERVAL_MINUTES_BOUNDS.maximum}
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
