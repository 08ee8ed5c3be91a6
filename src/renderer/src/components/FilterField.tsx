import type { ReactNode } from 'react';

// The labelled inputs of a filter bar: an empty value always means "no filter".

interface FieldProps<T> {
  id: string;
  label: string;
  value: T | undefined;
  onChange(next: T | undefined): void;
}

export function DateFilter({ id, label, value, onChange }: FieldProps<string>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="date" value={value ?? ''} onChange={(event) => onChange(event.target.value || undefined)} />
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
