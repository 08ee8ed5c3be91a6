import type { ReactNode } from 'react';
import { NetworkError, ServerError } from '../lib/api-client';

/**
 * Loading, error and empty states, the same everywhere: an API error shows its own message; no
 * answer at all is the page's banner to tell (ServerUnreachable).
 */
export function QueryState({
  isPending,
  error,
  isEmpty = false,
  empty = 'Nothing here yet.',
  children,
}: {
  isPending: boolean;
  error: unknown;
  isEmpty?: boolean;
  /** What an empty result says; null: nothing, where the page says it elsewhere. */
  empty?: ReactNode;
  children: ReactNode;
}) {
  // The page's one ServerUnreachable banner says it; each card only says it has nothing yet.
  if (error instanceof NetworkError) return <p className="state">Waiting for the server…</p>;
  if (error) return <ErrorMessage error={error} />;
  if (isPending) {
    return (
      <p className="state" role="status" aria-live="polite">
        Loading…
      </p>
    );
  }
  if (isEmpty) return empty === null ? null : <p className="state">{empty}</p>;
  return <>{children}</>;
}

export function ErrorMessage({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  const details = error instanceof ServerError ? error.details : [];
  return (
    <div className="state state-error" role="alert">
      <p>{message}</p>
      {details.length > 0 && (
        <ul>
          {details.map((detail, index) => (
            <li key={index}>
              {(detail.entry ?? detail.field) ? <code>{detail.entry ?? detail.field}</code> : null} {detail.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
