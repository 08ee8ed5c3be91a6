import type { Candidate } from './member-candidates';

/** A choice of people by name (their id beside it, names need not be unique): team and organization forms alike. */
export function MemberPicker({
  id,
  candidates,
  value,
  onChange,
  disabled,
  title,
  everyoneIn,
  describedBy,
}: {
  id: string;
  candidates: readonly Candidate[];
  value: string;
  onChange: (id: string) => void;
  disabled: boolean;
  title: string | undefined;
  /** What the empty choice says when nobody is left to add. */
  everyoneIn: string;
  describedBy?: string;
}) {
  return (
    <select
      id={id}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled || candidates.length === 0}
      title={title}
      aria-describedby={describedBy}
    >
      <option value="">{candidates.length === 0 ? everyoneIn : 'Choose a person…'}</option>
      {candidates.map((person) => (
        <option key={person.id} value={person.id}>
          {person.name} ({person.id})
        </option>
      ))}
    </select>
  );
}
