import { useLive } from './live-context';

const LABELS = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', unsupported: '' } as const;

/** Whether new scans appear on their own right now. */
export function LiveStatus() {
  const { status } = useLive();
  if (status === 'unsupported') return null;
  return (
    <span className={`live-status is-${status}`} role="status" title="New scans appear without a reload">
      {LABELS[status]}
    </span>
  );
}
