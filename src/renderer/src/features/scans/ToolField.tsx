import { useId, useMemo, useState } from 'react';
import { formatCount } from '../../lib/format';
import { toolSuggestions } from '../tools/tool-suggestions';
import { useTools } from '../tools/tools-api';

/** The list's tool filter: one exact name (a suggestion picked) or the start of names, any case. */
export interface ToolFilter {
  tool?: string | undefined;
  tool_prefix?: string | undefined;
}

/**
 * The tool filter (and the page's `/` search field), a combobox. What is typed filters by the start
 * of the tool's name whatever its letter case, as policies compare tools; suggestions from the
 * tools of the scans you can see pick one tool exactly. It commits on Enter, blur or a pick, not
 * per keystroke, so that each filter is one entry in the history. The parent keys it by the URL's
 * value, so a URL change resets what is typed.
 */
export function ToolField({
  tool,
  prefix,
  onCommit,
}: {
  tool: string | undefined;
  prefix: string | undefined;
  onCommit: (filter: ToolFilter) => void;
}) {
  const tools = useTools();
  const shown = tool ?? prefix ?? '';
  const [text, setText] = useState(shown);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const suggestions = useMemo(() => toolSuggestions(tools.data?.tools ?? [], text), [tools.data, text]);
  const expanded = open && suggestions.length > 0;

  const commitText = (next: string): void => {
    const typed = next.trim();
    // Unchanged (a picked name left as it was stays an exact pick).
    if (typed === shown) return;
    onCommit({ tool: undefined, tool_prefix: typed || undefined });
  };
  const pick = (name: string): void => {
    setText(name);
    setOpen(false);
    setActive(-1);
    if (name !== tool || prefix !== undefined) onCommit({ tool: name, tool_prefix: undefined });
  };

  return (
    <div className="field tool-field">
      <label htmlFor="scans-tool">Tool</label>
      <input
        id="scans-tool"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={`${listId}-hint`}
        value={text}
        placeholder="Any tool (press /)"
        data-shortcut="search"
        autoComplete="off"
        spellCheck={false}
        onFocus={() => setOpen(true)}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
            const step = event.key === 'ArrowDown' ? 1 : -1;
            setActive((current) => Math.max(-1, Math.min(suggestions.length - 1, current + step)));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            const chosen = expanded && active >= 0 ? suggestions[active] : undefined;
            if (chosen) pick(chosen.name);
            else {
              setOpen(false);
              commitText(text);
            }
          } else if (event.key === 'Escape' && expanded) {
            event.preventDefault();
            setOpen(false);
          }
        }}
        onBlur={() => {
          setOpen(false);
          commitText(text);
        }}
      />
      <span id={`${listId}-hint`} className="visually-hidden">
        Filters by the start of the tool name, any letter case; pick a suggestion for one tool exactly.
      </span>
      {expanded && (
        <ul className="tool-suggestions" id={listId} role="listbox" aria-label="Suggestions">
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion.name}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              // Keeps the focus in the field, whose blur would commit the typed text first.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(suggestion.name)}
            >
              <span className="tool-suggestion-name">{suggestion.name}</span>
              <span className="tool-suggestion-count">{formatCount(suggestion.scans)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
