import { useLoaderData, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useLive } from '../live/live-context';
import { ActionChart } from './ActionChart';
import { selectedRange, toSearch, type SelectedRange } from './overview-search';
import { OriginPicker, originLabel, useOrigins } from './OriginPicker';
import { RangePicker } from './RangePicker';
import { TokenCharts } from './TokenCharts';
import { useClock } from '../../lib/use-clock';
import { describeRange, describeSpan, toTimeRange } from './time-range';
import { ViolationCharts } from './ViolationCharts';
import { FirstVisit } from '../first-visit/FirstVisit';
import { useStoreTotal } from '../first-visit/use-store-total';

/** A live range end moves in steps, so that a stream of scans does not make a query per scan. */
const LIVE_STEP_MS = 10_000;

export function OverviewPage() {
  const search = useSearch({ from: '/' });
  const navigate = useNavigate({ from: '/' });
  const selected = useMemo(() => selectedRange(search), [search]);
  // Presets end "now": read once per visit (by the route, which starts the charts' requests with it),
  // so re-renders and range switches keep stable query keys, and moved on when a scan is heard of
  // live, so that the numbers take it in.
  const [visited] = useState(useLoaderData({ from: '/' }).visitedAt);
  const lastHeard = useLive().heard.at(-1)?.at;
  const now = Math.max(visited, lastHeard === undefined ? 0 : Math.ceil(lastHeard / LIVE_STEP_MS) * LIVE_STEP_MS);
  const range = useMemo(() => toTimeRange(selected, now), [selected, now]);
  const when = describeRange(selected);
  const clock = useClock();
  const origin = search.origin;
  const select = (next: SelectedRange) => void navigate({ search: { ...toSearch(next), origin } });
  const selectOrigin = (next: string | undefined) => void navigate({ search: { ...toSearch(selected), origin: next } });
  const origins = useOrigins().data?.origins ?? [];
  // An empty workspace gets what to do instead of six empty cards.
  const storeTotal = useStoreTotal();

  return (
    <section className="overview">
      <div className="overview-header">
        <h1>Overview</h1>
        <RangePicker key={`${range.since}-${range.until}`} selected={selected} range={range} onChange={select} />
      </div>
      {(origins.length > 1 || origin !== undefined) && (
        <OriginPicker origins={origins} selected={origin} onChange={selectOrigin} />
      )}
      <p className="overview-range" aria-live="polite">
        Showing {when} ({describeSpan(range, clock.zone)}), by {range.bucket}
        {origin === undefined ? '' : `, ${originLabel(origin)} only`}.
      </p>
      {storeTotal === 0 ? (
        <FirstVisit />
      ) : (
        <div className="overview-grid">
          <TokenCharts range={range} origin={origin} when={when} now={now} />
          <ActionChart range={range} origin={origin} when={when} />
          <ViolationCharts range={range} origin={origin} when={when} />
        </div>
      )}
    </section>
  );
}
