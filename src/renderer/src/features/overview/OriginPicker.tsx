import { useQuery } from '@tanstack/react-query';
import { LOCAL_ORIGIN, type OriginList } from '../../../../shared/api/origins';
import { apiGet } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { statsKeys } from './stats-api';

/** The scans' origins as the server counts them: `local` first, then each remote by name. */
export function useOrigins() {
  return useQuery({ queryKey: statsKeys.origins, queryFn: () => apiGet<OriginList>('/v1/stats/origins') });
}

/** What a person calls an origin: this machine, or the remote's own name. */
export const originLabel = (origin: string): string => (origin === LOCAL_ORIGIN ? 'This laptop' : origin);

/**
 * "All · This laptop · <remote>…": the overview's numbers of every origin together or of one apart.
 * Only there when something was pulled or a remote fills this store; a single origin has nothing
 * to tell apart. An origin from a link that is not (or no longer) here is still shown, selected.
 */
export function OriginPicker({
  origins,
  selected,
  onChange,
}: {
  origins: OriginList['origins'];
  selected: string | undefined;
  onChange: (origin: string | undefined) => void;
}) {
  const shown =
    selected === undefined || origins.some((o) => o.origin === selected)
      ? origins
      : [...origins, { origin: selected, scans: 0 }];
  return (
    <div role="group" aria-label="Origin" className="range-presets origin-picker">
      <button type="button" aria-pressed={selected === undefined} onClick={() => onChange(undefined)}>
        All
      </button>
      {shown.map(({ origin, scans }) => (
        <button
          key={origin}
          type="button"
          aria-pressed={selected === origin}
          title={`${formatCount(scans)} scans`}
          onClick={() => onChange(origin)}
        >
          {originLabel(origin)}
        </button>
      ))}
    </div>
  );
}
