import { useState, type FormEvent } from 'react';

/** Shown when the API answers 401: the browser has no session yet (or it ended). */
export function SignIn() {
  const [token, setToken] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const url = new URL(window.location.href);
    url.searchParams.set('token', token.trim());
    window.location.assign(url.toString());
  };
  return (
    <main className="sign-in">
      <h1>Sign in to Scandesk</h1>
      <p>
        Open the link with your token once, or paste the token here. <code>scandesk token</code> prints it.
      </p>
      <form onSubmit={submit}>
        <label htmlFor="token">Token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          required
        />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
