import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { ActionChart } from './ActionChart';
import { selectedRange, toSearch, type SelectedRange } from './overview-search';
import { RangePicker } from './RangePicker';
import { TokenCharts } from './TokenCharts';
import { describeRange, toTimeRange } from './time-range';
import { ViolationCharts } from './ViolationCharts';

export function OverviewPage() {
  const search = useSearch({ from: '/' });
  const navigate = useNavigate({ from: '/' });
  const selected = useMemo(() => selectedRange(search), [search]);
  // Presets end "now": read once per visit, so re-renders and range switches keep stable query keys.
  const [now] = useState(() => Date.now());
  const range = useMemo(() => toTimeRange(selected, now), [selected, now]);
  const when = describeRange(selected);
  const select = (next: SelectedRange) => void navigate({ search: toSearch(next) });

  return (
    <section className="overview">
      <div className="overview-header">
        <h1>Overview</h1>
        <RangePicker key={`${range.since}-${range.until}`} selected={selected} range={range} onChange={select} />
      </div>
      <p className="overview-range" aria-live="polite">
        Showing {when} ({new Date(range.since).toISOString().slice(0, 16).replace('T', ' ')} to{' '}
        {new Date(range.until).toISOString().slice(0, 16).replace('T', ' ')} UTC), by {range.bucket}.
      </p>
      <div className="overview-grid">
        <TokenCharts range={range} when={when} />
        <ActionChart range={range} when={when} />
        <ViolationCharts range={range} when={when} />
      </div>
    </section>
  );
}
