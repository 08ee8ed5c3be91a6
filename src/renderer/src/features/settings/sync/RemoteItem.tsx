import { useEffect, useId, useRef, useState } from 'react';
import type { Remote } from '../../../../../shared/api/remotes';
import { ErrorMessage } from '../../../components/QueryState';
import { ZonedTime } from '../../../components/ZonedTime';
import { BackgroundSetting } from './BackgroundSetting';
import { ConfirmRemove } from './ConfirmRemove';
import { ReplaceToken } from './ReplaceToken';
import { useSyncRemote, useTestRemote } from './remotes-api';
import { SummaryText } from './SummaryText';
import { KINDS, progressText, testText, waitingText } from './sync-words';

/**
 * One remote: what it is, its last sync and what waits to go up; Test, Sync now (its progress,
 * then its summary), Change token, background sync, Remove. `justAdded`: tested at once, and the
 * focus moves here so that a keyboard user lands on the answer.
 */
export function RemoteItem({ remote, justAdded }: { remote: Remote; justAdded: boolean }) {
  const headingId = useId();
  const region = useRef<HTMLElement>(null);
  const test = useTestRemote(remote.name);
  const sync = useSyncRemote(remote.name);
  const [confirming, setConfirming] = useState(false);
  const [changingToken, setChangingToken] = useState(false);
  const busy = test.isPending || sync.isPending;
  // A phase whose total is not known yet (or is nothing) shows a bar that only says "working".
  const total = sync.progress?.total ? sync.progress.total : null;
  const tested = useRef(false);
  const { mutate: runTest } = test;

  useEffect(() => {
    if (!justAdded || tested.current) return;
    tested.current = true;
    region.current?.focus();
    runTest();
  }, [justAdded, runTest]);

  const startSync = (): void => {
    test.reset();
    sync.mutate();
  };

  return (
    <section className="sync-remote" aria-labelledby={headingId} tabIndex={-1} ref={region}>
      <h3 id={headingId}>{remote.name}</h3>
      <dl className="settings-list">
        <dt>URL</dt>
        <dd>
          <code>{remote.url}</code>
        </dd>
        <dt>Kind</dt>
        <dd>{remote.kind === null ? 'not known until it is tested or synced' : KINDS[remote.kind]}</dd>
        <dt>Last sync</dt>
        <dd data-testid="last-sync">
          {remote.last_sync_at === null || remote.last_sync === null ? (
            'never'
          ) : (
            <>
              <ZonedTime value={remote.last_sync_at} />: <SummaryText summary={remote.last_sync} />
            </>
          )}
        </dd>
        <dt>Waiting to go up</dt>
        <dd>{waitingText(remote)}</dd>
        <dt>Background</dt>
        <dd>
          <BackgroundSetting remote={remote} />
        </dd>
      </dl>
      <div className="token-actions">
        <button type="button" disabled={busy} onClick={() => test.mutate()}>
          {test.isPending ? 'Testing…' : 'Test'}
          <span className="visually-hidden"> {remote.name}</span>
        </button>
        <button type="button" className="primary" disabled={busy} onClick={startSync}>
          {sync.isPending ? 'Syncing…' : 'Sync now'}
          <span className="visually-hidden"> with {remote.name}</span>
        </button>
        <button type="button" disabled={busy || changingToken} onClick={() => setChangingToken(true)}>
          Change token…<span className="visually-hidden"> of {remote.name}</span>
        </button>
        <button type="button" className="danger" disabled={busy || confirming} onClick={() => setConfirming(true)}>
          Remove…<span className="visually-hidden"> {remote.name}</span>
        </button>
      </div>
      {test.data ? (
        <p className="state" role="status" data-testid="test-result">
          {testText(test.data)}
        </p>
      ) : null}
      {test.error ? <ErrorMessage error={test.error} /> : null}
      {changingToken ? (
        <ReplaceToken
          remote={remote}
          onDone={(replaced) => {
            setChangingToken(false);
            if (replaced) runTest();
          }}
        />
      ) : null}
      {/* Announced as it changes: the phase and counts while the run goes, then its summary. */}
      <div className="sync-run" role="status" aria-live="polite" data-testid="sync-run">
        {sync.isPending ? (
          <>
            <progress
              aria-label={`Sync with ${remote.name}`}
              max={total ?? undefined}
              value={total === null ? undefined : Math.min(sync.progress?.done ?? 0, total)}
            />{' '}
            {sync.progress ? progressText(sync.progress) : 'Starting…'}
          </>
        ) : sync.data ? (
          <SummaryText summary={sync.data} />
        ) : null}
      </div>
      {sync.error ? <ErrorMessage error={sync.error} /> : null}
      {confirming ? <ConfirmRemove name={remote.name} onCancel={() => setConfirming(false)} /> : null}
    </section>
  );
}
