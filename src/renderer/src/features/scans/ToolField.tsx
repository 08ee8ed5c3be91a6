import { useState } from 'react';

/**
 * The tool filter (and the page's `/` search field). It commits on Enter, blur or picking a
 * suggestion, not per keystroke: an exact-match filter on a half-typed name is only noise.
 * The parent keys it by the URL's value, so a URL change resets what is typed.
 */
export function ToolField({
  value,
  tools,
  onCommit,
}: {
  value: string | undefined;
  tools: string[] | undefined;
  onCommit: (tool: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? '');
  const commit = (next: string): void => {
    if (next.trim() !== (value ?? '')) onCommit(next.trim() || undefined);
  };
  return (
    <div className="field">
      <label htmlFor="scans-tool">Tool</label>
      <input
        id="scans-tool"
        list="scans-tool-names"
        value={text}
        placeholder="Any tool (press /)"
        data-shortcut="search"
        autoComplete="off"
        onChange={(event) => {
          setText(event.target.value);
          if (tools?.includes(event.target.value)) commit(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(text);
          }
        }}
        onBlur={() => commit(text)}
      />
      <datalist id="scans-tool-names">
        {tools?.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </div>
  );
}
