import { useUnreachableServer } from '../lib/use-unreachable-server';

/**
 * One banner for the whole page while the server does not answer, however many cards asked; it
 * goes by itself once the server answers again.
 */
export function ServerUnreachable() {
  const { error, retry } = useUnreachableServer();
  if (error === undefined) return null;
  return (
    <div className="server-unreachable" role="alert">
      <p>
        <strong>{error.message}.</strong> Is <code>scandesk serve</code> (or the desktop app) still running? This page
        asks again by itself every few seconds.
      </p>
      <button type="button" onClick={retry}>
        Retry
      </button>
    </div>
  );
}
