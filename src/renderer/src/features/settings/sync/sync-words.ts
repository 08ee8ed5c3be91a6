import type { Remote, RemoteTestResult } from '../../../../../shared/api/remotes';
import type { SyncEvent, SyncOutcome, SyncSummary } from '../../../../../shared/api/sync';
import { formatBytes, formatCount } from '../../../lib/format';

// What the Sync card says about a remote, a test and a run, in one place so that the words stay
// the same wherever they show (the card, its live region) and a test can read them.

export type SyncProgressEvent = Extract<SyncEvent, { type: 'progress' }>;

const PHASES: Record<SyncProgressEvent['phase'], string> = {
  organizations: 'Organizations',
  pull: 'Pull',
  push: 'Push',
};

const scans = (n: number): string => `${formatCount(n)} ${n === 1 ? 'scan' : 'scans'}`;

/** "Pull: 1,200 of 5,000 scans, 3.1 MiB": the phase, done of total (while known), bytes received. */
export function progressText(event: SyncProgressEvent): string {
  const counted =
    event.phase === 'organizations'
      ? `${formatCount(event.done)}${event.total === null ? '' : ` of ${formatCount(event.total)}`}`
      : event.total === null
        ? scans(event.done)
        : `${formatCount(event.done)} of ${scans(event.total)}`;
  return `${PHASES[event.phase]}: ${counted}, ${formatBytes(event.bytes)}`;
}

export const OUTCOMES: Record<SyncOutcome, string> = {
  done: 'Synced',
  partial: 'Partly synced',
  unreachable: 'Could not reach the remote',
};

const days = (n: number): string => `${formatCount(n)} ${n === 1 ? 'day differs' : 'days differ'}`;

/**
 * A run's summary in one sentence: what came down, what went up, what is left to go up, the
 * scans the remote no longer lists (deletions are not propagated: they stay here), and whether
 * this store now holds what the remote shows (docs/sync.md#convergence-check).
 */
export function summaryText(summary: SyncSummary): string {
  const { pulled, pushed, gone } = summary;
  if (summary.outcome === 'unreachable') return `${OUTCOMES.unreachable}.`;
  const parts = [
    `pulled ${formatCount(pulled.new)} new, ${formatCount(pulled.changed)} changed, ${formatCount(pulled.unchanged)} unchanged (${formatBytes(pulled.bytes)})`,
    `pushed ${formatCount(pushed.sent)}, ${formatCount(pushed.waiting)} waiting`,
  ];
  if (gone > 0) parts.push(`${scans(gone)} no longer on the remote, kept here`);
  const convergence = summary.convergence;
  if (convergence?.state === 'in_step') parts.push('in step with the remote');
  if (convergence?.state === 'differs') {
    const first = convergence.days[0];
    const where = first
      ? ` (${first.day}: ${scans(first.here.scans)} here, ${formatCount(first.there.scans)} there)`
      : '';
    parts.push(`${days(convergence.differing_days)} from the remote${where}`);
  }
  return `${OUTCOMES[summary.outcome]}: ${parts.join('; ')}.`;
}

/** What a Test found, said to a person. */
export function testText(result: RemoteTestResult): string {
  const kind = result.kind === 'scandesk' ? 'a Scandesk server' : 'an upstream server';
  const organizations = `${formatCount(result.organizations)} ${result.organizations === 1 ? 'organization' : 'organizations'}`;
  return `Reached ${kind}: the token's user sees ${scans(result.scans)} in ${organizations}.`;
}

export const KINDS = { scandesk: 'Scandesk', upstream: 'Upstream interface' } as const;

/**
 * The scans waiting to go up: as the server counts them now, or else as the last run did; unknown
 * before the first run. An upstream server is only pulled from (it promises no idempotency).
 */
export function waitingText(remote: Pick<Remote, 'kind' | 'pending_push' | 'last_sync'>): string {
  if (remote.kind === 'upstream') return 'nothing: scans are not pushed to an upstream server';
  const waiting = remote.pending_push ?? remote.last_sync?.pushed.waiting;
  if (waiting === undefined) return 'not known until the first sync';
  return waiting === 0 ? 'nothing' : scans(waiting);
}
