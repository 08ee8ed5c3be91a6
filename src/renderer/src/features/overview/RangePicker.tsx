import { useId, useState, type FormEvent } from 'react';
import { IsoDateInput, type IsoDateValue } from '../../components/IsoDateInput';
import { isSearchDate } from '../../../../shared/search-params';
import { RANGE_PRESETS, type SelectedRange } from './overview-search';
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
  // The picker is remounted when the range changes, so these are where the fields start.
  const [initial] = useState(() => ({ since: isoDay(range.since), until: isoDay(range.until - 1) }));
  const [since, setSince] = useState<IsoDateValue>(initial.since);
  const [until, setUntil] = useState<IsoDateValue>(initial.until);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (typeof since !== 'string' || typeof until !== 'string' || !isSearchDate(since) || !isSearchDate(until))
      return setError('Enter both dates as YYYY-MM-DD.');
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
      <form className="range-custom" onSubmit={apply} aria-label="Custom range" noValidate>
        <label htmlFor={`${id}-since`}>From</label>
        <IsoDateInput id={`${id}-since`} value={initial.since} hint={`${id}-days`} onValue={setSince} required />
        <label htmlFor={`${id}-until`}>To</label>
        <IsoDateInput id={`${id}-until`} value={initial.until} hint={`${id}-days`} onValue={setUntil} required />
        <span id={`${id}-days`} className="visually-hidden">
          Whole UTC days, YYYY-MM-DD.
        </span>
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
