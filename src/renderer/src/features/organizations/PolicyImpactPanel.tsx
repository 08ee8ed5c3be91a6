import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Policy, PolicyComparison } from '../../../../shared/api/policies';
import { DAY_MS } from '../../../../shared/time';
import { IsoDateInput, type IsoDateValue } from '../../components/IsoDateInput';
import { ErrorMessage } from '../../components/QueryState';
import { formatCount } from '../../lib/format';
import { statsKeys } from '../overview/stats-api';
import { scanKeys } from '../scans/scans-api';
import { change, impactRows } from './impact-rows';
import { streamImpact, type ImpactProgress } from './policy-impact-api';

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const policyPath = (orgId: string, action: string) => `/v1/organizations/${encodeURIComponent(orgId)}/policy/${action}`;

function ImpactTable({ comparison, policyLabel }: { comparison: PolicyComparison; policyLabel: string }) {
  return (
    <table className="impact-table">
      <caption>
        {formatCount(comparison.scanned)} submitted scans in the range
        {comparison.imported_skipped > 0 &&
          ` (${formatCount(comparison.imported_skipped)} imported ones keep their package's violations)`}
        ; {formatCount(comparison.changed_scans)} would change.
      </caption>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Stored now</th>
          <th scope="col">{policyLabel}</th>
          <th scope="col">Change</th>
        </tr>
      </thead>
      <tbody>
        {impactRows(comparison).map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>{formatCount(row.current)}</td>
            <td>{formatCount(row.policy)}</td>
            <td>{change(row)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * What a policy flags over the organization's stored scans of a range, beside what is stored:
 * the draft while editing ("preview"), or the saved policy before re-evaluating stored scans
 * ("reevaluate", which then applies it after a confirmation). Progress shows as it runs.
 */
export function PolicyImpactPanel({
  orgId,
  mode,
  policy,
  disabled,
}: {
  orgId: string;
  mode: 'preview' | 'reevaluate';
  /** The policy to measure: the form's draft (undefined while it has errors) or the saved one. */
  policy: () => Policy | undefined;
  disabled: boolean;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [initial] = useState(() => ({ since: day(Date.now() - 30 * DAY_MS), until: day(Date.now()) }));
  const [sinceDay, setSince] = useState<IsoDateValue>(initial.since);
  const [untilDay, setUntil] = useState<IsoDateValue>(initial.until);
  // A field being retyped measures nothing until it holds a real day again.
  const since = sinceDay ?? '';
  const until = untilDay ?? '';
  const datesOk = since !== '' && until !== '';
  const [progress, setProgress] = useState<ImpactProgress>();
  const range = {
    since: `${since}T00:00:00Z`,
    until: datesOk ? new Date(Date.parse(`${until}T00:00:00Z`) + DAY_MS).toISOString() : '',
  };
  const preview = useMutation({
    mutationFn: (measured: Policy) =>
      streamImpact(policyPath(orgId, 'preview'), { policy: measured, ...range }, setProgress),
  });
  const apply = useMutation({
    mutationFn: () => streamImpact(policyPath(orgId, 'reevaluate'), range, setProgress),
    onSuccess: () => {
      preview.reset();
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
      void queryClient.invalidateQueries({ queryKey: scanKeys.all });
    },
  });
  const running = preview.isPending || apply.isPending;
  // A refusal was of the range sent (too long, say): a changed range makes it stale.
  const changeRange =
    (set: (value: IsoDateValue) => void) =>
    (value: IsoDateValue): void => {
      set(value);
      if (preview.isError) preview.reset();
      if (apply.isError) apply.reset();
    };
  const start = () => {
    const measured = policy();
    if (!measured) return;
    apply.reset();
    setProgress(undefined);
    preview.mutate(measured);
  };
  const label = mode === 'preview' ? 'With this draft' : 'With the saved policy';

  return (
    <section className="impact-panel card" aria-labelledby={`${id}-heading`}>
      <h4 id={`${id}-heading`}>{mode === 'preview' ? 'Preview impact' : 'Re-evaluate stored scans'}</h4>
      <p className="org-muted">
        {mode === 'preview'
          ? 'What this draft would flag over stored scans, before you save it. Nothing is written.'
          : 'Apply the saved policy to scans submitted before it changed, so that lists and the overview follow the current rules. All or nothing; see the difference first.'}
      </p>
      <div className="org-row">
        <label htmlFor={`${id}-since`}>From</label>
        <IsoDateInput id={`${id}-since`} value={initial.since} onValue={changeRange(setSince)} hint={`${id}-days`} />
        <label htmlFor={`${id}-until`}>to</label>
        <IsoDateInput id={`${id}-until`} value={initial.until} onValue={changeRange(setUntil)} hint={`${id}-days`} />
        <span id={`${id}-days`} className="muted">
          (UTC days)
        </span>
        <button type="button" onClick={start} disabled={disabled || running || !datesOk}>
          {mode === 'preview' ? 'Preview impact' : 'Preview re-evaluation'}
        </button>
      </div>
      {running && (
        <p role="status">
          {apply.isPending ? 'Re-evaluating' : 'Evaluating'}{' '}
          {progress ? `${formatCount(progress.done)} of ${formatCount(progress.total)} scans` : '…'}{' '}
          <progress value={progress?.done ?? 0} max={progress?.total || 1} aria-label="Progress" />
        </p>
      )}
      {preview.data && !apply.isPending && <ImpactTable comparison={preview.data} policyLabel={label} />}
      {mode === 'reevaluate' && preview.data && !running && datesOk && preview.data.changed_scans > 0 && (
        <button type="button" className="danger" onClick={() => apply.mutate()}>
          Re-evaluate {formatCount(preview.data.changed_scans)} scans
        </button>
      )}
      {apply.data && (
        <p role="status">
          Re-evaluated: {formatCount(apply.data.changed_scans)} scans changed;{' '}
          {formatCount(apply.data.policy.violations)} violations stored for the range.
        </p>
      )}
      {preview.error && <ErrorMessage error={preview.error} />}
      {apply.error && <ErrorMessage error={apply.error} />}
    </section>
  );
}
