import type { ReactNode } from 'react';
import { IsoDateInput } from './IsoDateInput';

// The labelled inputs of a filter bar: an empty value always means "no filter".

interface FieldProps<T> {
  id: string;
  label: string;
  value: T | undefined;
  onChange(next: T | undefined): void;
}

/** A day typed as YYYY-MM-DD; the filter changes once the text is a real day (or empty). */
export function DateFilter({ id, label, value, onChange, hint }: FieldProps<string> & { hint?: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <IsoDateInput id={id} value={value} hint={hint} onValue={(date) => date !== null && onChange(date)} />
    </div>
  );
}

/** A select whose first option, "Any", is no filter; `children` are the other options. */
export function SelectFilter({ id, label, value, onChange, children }: FieldProps<string> & { children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">Any</option>
        {children}
      </select>
    </div>
  );
}
