import { useRef, useState, type FormEvent } from 'react';
import { postSignIn, type SignInOutcome } from '../lib/sign-in-request';

const MESSAGES: Record<Exclude<SignInOutcome, 'signed-in'>, string> = {
  'wrong-token': 'That token is not valid on this server. Check that you copied all of it, or print it again.',
  refused: 'The server refused to sign in from this page. Open the server’s own address and try again.',
};

/** Shown when the API answers 401: the browser has no session yet (or it ended). */
export function SignIn() {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    try {
      const outcome = await postSignIn(token.trim());
      // A fresh page for the new session: nothing another account's page held stays in memory.
      if (outcome === 'signed-in') return window.location.reload();
      setError(MESSAGES[outcome]);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
    field.current?.select();
  };
  return (
    <main className="sign-in">
      <h1>Sign in to Scandesk</h1>
      <p>
        Open the link with your token once, or paste the token here. <code>scandesk token</code> prints it.
      </p>
      <form onSubmit={(event) => void submit(event)}>
        {error && (
          <p className="state-error sign-in-error" id="sign-in-error" role="alert">
            {error}
          </p>
        )}
        <label htmlFor="token">Token</label>
        <input
          id="token"
          ref={field}
          type="password"
          autoComplete="off"
          value={token}
          aria-invalid={error !== null}
          aria-describedby={error ? 'sign-in-error' : undefined}
          onChange={(e) => {
            setToken(e.target.value);
            setError(null);
          }}
          required
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
