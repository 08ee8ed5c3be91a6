// Text for `scandesk sync`: pure functions, so that what a user reads is tested without a server.
import type { SyncEvent, SyncOutcome, SyncSummary } from '../shared/api/sync';
import { count, plural } from './scan-format';
import { terminalSafe } from './terminal-text';

type Progress = Extract<SyncEvent, { type: 'progress' }>;

/** `3.1 MB`: decimal megabytes, one digit, as a download is usually reported. */
export function megabytes(bytes: number): string {
  if (bytes < 100_000) return `${(bytes / 1_000_000).toFixed(bytes === 0 ? 0 : 2)} MB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** `pull: 1,200 of 5,000 scans, 3.1 MB`; without a known total, `pull: 1,200 scans, 3.1 MB`. */
export function syncProgressText(event: Progress): string {
  const unit = event.phase === 'organizations' ? 'organizations' : 'scans';
  const done =
    event.total === null ? `${count(event.done)} ${unit}` : `${count(event.done)} of ${count(event.total)} ${unit}`;
  return `${event.phase}: ${done}, ${megabytes(event.bytes)}`;
}

/**
 * One line per remote: `team: done. pulled 3 new, 1 changed, 10 unchanged (3.1 MB); pushed 2, 0
 * waiting; 4 scans no longer on the remote, kept here; in step`, then one indented line per
 * differing day (docs/sync.md#convergence-check) and per problem.
 */
export function syncSummaryText(summary: SyncSummary): string {
  const { pulled, pushed } = summary;
  const parts = [
    `pulled ${count(pulled.new)} new, ${count(pulled.changed)} changed, ${count(pulled.unchanged)} unchanged (${megabytes(pulled.bytes)})`,
    `pushed ${count(pushed.sent)}, ${count(pushed.waiting)} waiting`,
  ];
  if (summary.gone > 0) parts.push(`${plural(summary.gone, 'scan')} no longer on the remote, kept here`);
  const convergence = summary.convergence;
  if (convergence?.state === 'in_step') parts.push('in step');
  if (convergence?.state === 'differs') parts.push(`${plural(convergence.differing_days, 'day')} differ`);
  const days = (convergence?.state === 'differs' ? convergence.days : []).map(
    ({ organization_id, day, here, there }) =>
      `  ${terminalSafe(organization_id)} ${day}: ${count(here.scans)} scans here, ${count(there.scans)} there`,
  );
  const head =
    summary.outcome === 'unreachable'
      ? `${summary.remote}: could not reach it`
      : `${summary.remote}: ${summary.outcome}. ${parts.join('; ')}`;
  const problems = summary.errors.map((problem) => `  ${terminalSafe(problem.what)}: ${terminalSafe(problem.why)}`);
  return [terminalSafe(head), ...days, ...problems].join('\n');
}

/** 0 when every remote is done, 2 when one could not be reached, 1 otherwise (partial). */
export function syncExitCode(outcomes: readonly SyncOutcome[]): number {
  if (outcomes.includes('unreachable')) return 2;
  return outcomes.every((outcome) => outcome === 'done') ? 0 : 1;
}
