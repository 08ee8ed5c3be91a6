import { ErrorMessage, QueryState } from '../../components/QueryState';
import { ServerError } from '../../lib/api-client';
import { browserZone } from '../../lib/time-zone';
import { useTimeZone } from '../../lib/use-time-zone';
import { cliSnippet } from './cli-snippet';
import { CopyButton } from './CopyButton';
import { SyncCard } from './sync/SyncCard';
import { TokensCard } from './TokensCard';
import { useSettings, useSignOut } from './use-settings';

export function SettingsPage() {
  const settings = useSettings();
  const signOut = useSignOut();
  const url = window.location.origin;
  const forbidden = settings.error instanceof ServerError && settings.error.status === 403;
  const hint = settings.data?.token_hint ?? null;
  const snippet = cliSnippet(url, settings.data?.data_dir ?? null);
  const [zone, setZone] = useTimeZone();

  return (
    <section className="settings">
      <h1>Settings</h1>
      <div className="card settings-card">
        <h2>Command line</h2>
        <dl className="settings-list">
          <dt>API URL</dt>
          <dd>
            <code data-testid="api-url">{url}</code> <CopyButton value={url} label="API URL" />
          </dd>
          <dt>Token</dt>
          <dd>
            {forbidden ? (
              <p className="state">Only the workspace owner can see the token. Ask them for a token of your own.</p>
            ) : (
              <QueryState
                isPending={settings.isPending}
                error={settings.error}
                isEmpty={settings.isSuccess && hint === null}
                empty="The data directory has no token file: the token cannot be shown."
              >
                {/* A browser session never receives the token itself (docs/contract/auth.md#sessions). */}
                <code data-testid="token">{hint}</code>
                <p className="state">
                  Print it in a terminal with <code>scandesk token</code>; the command line below finds it by itself.
                </p>
              </QueryState>
            )}
          </dd>
          <dt>Shell</dt>
          <dd>
            <pre className="settings-snippet">
              <code data-testid="cli-snippet">{snippet}</code>
            </pre>
            <CopyButton value={snippet} label="shell snippet" />
          </dd>
        </dl>
      </div>
      {settings.data && (
        <div className="card settings-card">
          <h2>Workspace</h2>
          <dl className="settings-list">
            <dt>Data directory</dt>
            <dd>
              <code>{settings.data.data_dir}</code> <CopyButton value={settings.data.data_dir} label="data directory" />
            </dd>
            <dt>Version</dt>
            <dd>{settings.data.version}</dd>
          </dl>
        </div>
      )}
      <TokensCard />
      <SyncCard />
      <div className="card settings-card">
        <h2>Display</h2>
        <label className="settings-field">
          Show times in{' '}
          <select value={zone} onChange={(event) => setZone(event.target.value === 'utc' ? 'utc' : 'local')}>
            <option value="local">local time ({browserZone()})</option>
            <option value="utc">UTC</option>
          </select>
        </label>
        <p className="state">
          Every time the viewer shows follows it, and each page names its zone; this browser remembers it. Dates you
          type in filters are whole UTC days, as the server counts them, and so are the overview's daily buckets.
        </p>
      </div>
      <div className="card settings-card">
        <h2>Session</h2>
        <p>Sign this browser out. Tokens stay valid; sign in again with the token link.</p>
        <button type="button" className="danger" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </button>
        {signOut.error && <ErrorMessage error={signOut.error} />}
      </div>
    </section>
  );
}
