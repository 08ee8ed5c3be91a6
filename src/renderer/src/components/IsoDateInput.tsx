import { useId, useState } from 'react';
import { parseDate } from '../../../shared/time';

/** What an IsoDateInput reports: a real `YYYY-MM-DD` day, `undefined` when empty, `null` while not a date. */
export type IsoDateValue = string | undefined | null;

export function readIsoDate(text: string): IsoDateValue {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return parseDate(trimmed) === null ? null : trimmed;
}

/**
 * A date typed as `YYYY-MM-DD`, the form every date in the viewer is shown in: the browser's own
 * date input would show the user's locale (mm/dd/yyyy) instead. Says what is wrong once the field
 * is left with something that is not a real day.
 */
export function IsoDateInput({
  id,
  value,
  onValue,
  hint,
  required,
}: {
  id: string;
  value: string | undefined;
  onValue: (date: IsoDateValue) => void;
  /** Id of a text describing the field (e.g. which days it means). */
  hint?: string | undefined;
  required?: boolean | undefined;
}) {
  const [text, setText] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  const [touched, setTouched] = useState(false);
  const errorId = useId();
  // A new value from outside (the URL, a reset) replaces what is typed.
  if (value !== shown) {
    setShown(value);
    if (readIsoDate(text) !== (value ?? undefined)) setText(value ?? '');
  }
  const invalid = touched && readIsoDate(text) === null;
  const describedBy = [hint, invalid ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <>
      <input
        id={id}
        type="text"
        className="iso-date"
        inputMode="numeric"
        autoComplete="off"
        placeholder="YYYY-MM-DD"
        pattern="\d{4}-\d{2}-\d{2}"
        maxLength={10}
        size={11}
        required={required}
        value={text}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          setText(event.target.value);
          setTouched(false);
          onValue(readIsoDate(event.target.value));
        }}
        onBlur={() => setTouched(true)}
      />
      {invalid && (
        <span id={errorId} className="field-error" role="alert">
          Not a date: use YYYY-MM-DD, e.g. 2026-11-20.
        </span>
      )}
    </>
  );
}
