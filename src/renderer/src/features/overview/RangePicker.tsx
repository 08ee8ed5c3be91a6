import { useState, type FormEvent } from 'react';
import { isIsoDate, RANGE_PRESETS, type SelectedRange } from './overview-search';
import { isoDay, PRESET_LABEL, type TimeRange } from './time-range';

/** Preset buttons and a custom from/to date form; every choice goes to the URL through `onChange`. */
export function RangePicker({
  selected,
  range,
  onChange,
}: {
  selected: SelectedRange;
  range: TimeRange;
  onChange: (search: SelectedRange) => void;
}) {
  const [since, setSince] = useState(isoDay(range.since));
  const [until, setUntil] = useState(isoDay(range.until - 1));
  const [error, setError] = useState<string | null>(null);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (!isIsoDate(since) || !isIsoDate(until)) return setError('Enter both dates.');
    if (since > until) return setError('The start date must not be after the end date.');
    setError(null);
    onChange({ range: 'custom', since, until });
  };

  return (
    <div className="range-picker">
      <div role="group" aria-label="Time range" className="range-presets">
        {RANGE_PRESETS.map((preset) => (
          <button
            key={preset}
            type="button"
            aria-pressed={selected.range === preset}
            onClick={() => onChange({ range: preset })}
          >
            {PRESET_LABEL[preset]}
          </button>
        ))}
      </div>
      <form className="range-custom" onSubmit={apply} aria-label="Custom range">
        <label>
          From <input type="date" value={since} onChange={(e) => setSince(e.target.value)} required />
        </label>
        <label>
          To <input type="date" value={until} onChange={(e) => setUntil(e.target.value)} required />
        </label>
        <button type="submit">Apply custom range</button>
        {error && (
          <p role="alert" className="state-error">
            {error}
          </p>
        )}
      </form>
    </div>
  );
}
