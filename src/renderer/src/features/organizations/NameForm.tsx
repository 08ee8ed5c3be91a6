import { useId, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../components/QueryState';
import { nameProblem } from './name-rule';
import { Reason } from './Guarded';
import type { Permission } from './permissions';

const ALLOWED: Permission = { allowed: true, reason: null };

/** One name field with the client-side name rule and the server's answer: create and rename. */
export function NameForm({
  label,
  submitLabel,
  initial = '',
  pending,
  error,
  permission = ALLOWED,
  onSubmit,
}: {
  label: string;
  submitLabel: string;
  initial?: string;
  pending: boolean;
  error: unknown;
  permission?: Permission;
  onSubmit: (name: string) => void;
}) {
  const inputId = useId();
  const problemId = useId();
  const reasonId = useId();
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  // The server's refusal was of the name sent: once the name changes it no longer applies.
  const [edited, setEdited] = useState(false);
  const off = !permission.allowed;

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found = nameProblem(name);
    setProblem(found);
    setEdited(false);
    if (!found) onSubmit(name);
  };

  const edit = (value: string): void => {
    setName(value);
    setProblem(null);
    setEdited(true);
  };

  const describedBy = [problem ? problemId : null, off ? reasonId : null].filter(Boolean).join(' ') || undefined;
  return (
    <form className="org-name-form" onSubmit={submit} noValidate>
      <label htmlFor={inputId}>{label}</label>
      <div className="org-row">
        <input
          id={inputId}
          value={name}
          onChange={(event) => edit(event.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          disabled={off}
          title={permission.reason ?? undefined}
        />
        <button type="submit" disabled={off || pending} title={permission.reason ?? undefined}>
          {pending ? 'Saving…' : submitLabel}
        </button>
      </div>
      <Reason id={reasonId} permission={permission} />
      {problem && (
        <p className="org-field-error" id={problemId} role="alert">
          {problem}
        </p>
      )}
      {error && !edited ? <ErrorMessage error={error} /> : null}
    </form>
  );
}
