import { useId, useState } from 'react';
import { isId } from '../../../../shared/ids';

/**
 * Finds your imported scans by the id they had in their package (an upstream id from a ticket).
 * Commits on Enter or blur, as the tool field does; the parent keys it by the URL's value, so a
 * URL change resets what is typed. What cannot be an id is said at once, never sent.
 */
export function PackageIdField({
  value,
  onCommit,
}: {
  value: string | undefined;
  onCommit: (packageId: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? '');
  const hintId = useId();
  const typed = text.trim();
  const invalid = typed !== '' && !isId(typed);
  const commit = (): void => {
    if (invalid || typed === (value ?? '')) return;
    onCommit(typed || undefined);
  };
  return (
    <div className="field">
      <label htmlFor="scans-package-id">Package ID</label>
      <input
        id="scans-package-id"
        value={text}
        placeholder="Any"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={invalid}
        aria-describedby={hintId}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit();
          }
        }}
      />
      <span id={hintId} className={invalid ? 'field-error' : 'visually-hidden'} role={invalid ? 'alert' : undefined}>
        {invalid
          ? 'An ID is letters, digits, "_", ".", ":" or "-" only.'
          : 'The ID an imported scan had in its package; finds your own imports.'}
      </span>
    </div>
  );
}
