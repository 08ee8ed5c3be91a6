import { Link, Outlet } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { User } from '../../../shared/api/users';
import { ErrorMessage } from '../components/QueryState';
import { ServerUnreachable } from '../components/ServerUnreachable';
import { SignIn } from '../components/SignIn';
import { ImportProvider, useImport } from '../features/import/import-context';
import { LiveProvider } from '../features/live/live-context';
import { LiveStatus } from '../features/live/LiveStatus';
import { EndedSessionProvider, useEndedSession } from '../features/settings/ended-session-context';
import { useMe } from '../features/users/users-api';
import { NetworkError, ServerError } from '../lib/api-client';
import { useGlobalShortcuts } from './shortcuts';
import { useTheme } from './theme';

const NAV = [
  { to: '/', label: 'Overview' },
  { to: '/scans', label: 'Scans' },
  { to: '/import', label: 'Import' },
  { to: '/organizations', label: 'Organizations' },
  { to: '/settings', label: 'Settings' },
] as const;

/** Whose account this browser acts as: a sign-in link can change it, so it is always in sight. */
function SignedInAs({ user }: { user: User }) {
  return (
    <Link to="/settings" className="signed-in" title="Signed in as this user: sign out in Settings">
      <span className="signed-in-label">Signed in as</span> <strong>{user.name}</strong>
    </Link>
  );
}

function Shell({ user }: { user: User }) {
  const { pick } = useImport();
  const { theme, cycle } = useTheme();
  const onImport = useCallback(() => pick(), [pick]);
  useGlobalShortcuts(onImport);
  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          Scandesk
        </Link>
        <nav aria-label="Main">
          {NAV.map((item) => (
            <Link
              key={item.to}
              to={item.to}
              activeOptions={{ exact: item.to === '/' }}
              activeProps={{ 'aria-current': 'page' }}
            >
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="topbar-actions">
          <SignedInAs user={user} />
          <LiveStatus />
          <button type="button" className="primary" onClick={pick} title="Import evidence (Ctrl+O)">
            Import evidence…
          </button>
          <button type="button" onClick={cycle} aria-label={`Theme: ${theme}. Change theme`} title={`Theme: ${theme}`}>
            {theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'}
          </button>
        </div>
      </header>
      <main className="content" id="main">
        <ServerUnreachable />
        <Outlet />
      </main>
    </div>
  );
}

/** Everything needs a signed-in browser: without a session the API says 401 and we ask for the token. */
export function Layout() {
  return (
    <EndedSessionProvider>
      <SessionGate />
    </EndedSessionProvider>
  );
}

function SessionGate() {
  const me = useMe();
  const { held } = useEndedSession();
  // A refused refetch keeps the last answer, so a held page goes on showing who it was.
  const user = me.data;
  const signedOut = me.error instanceof ServerError && me.error.status === 401;
  if (signedOut && !(held && user)) return <SignIn />;
  // Gone before it ever answered: the banner alone, which asks again until the server is back.
  if (me.error instanceof NetworkError && user === undefined) {
    return (
      <main className="content">
        <ServerUnreachable />
      </main>
    );
  }
  // A failed refetch keeps who signed in: the page stays, and its banner says the server is gone.
  if (me.error && !signedOut && !(me.error instanceof NetworkError)) return <ErrorMessage error={me.error} />;
  if (user === undefined) return <p className="state">Loading…</p>;
  return (
    <ImportProvider>
      <LiveProvider>
        <Shell user={user} />
      </LiveProvider>
    </ImportProvider>
  );
}

export function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        There is no page here. <Link to="/">Go to the overview</Link>.
      </p>
    </section>
  );
}
