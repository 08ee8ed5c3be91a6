// A URL or folder pasted into a shell must stay one word whatever it holds.
const SAFE = /^[\w@%+=:,./-]+$/;

/** POSIX shell quoting: bare when safe, else single quotes with embedded quotes escaped. */
export function shellQuote(value: string): string {
  if (SAFE.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The line that points the CLI at this server. It names the data directory rather than the token:
 * the CLI reads the token file there itself and checks the server is that directory's before it
 * sends it, and the page never holds the token (docs/contract/auth.md#sessions). Someone who may
 * not see the data directory gets a placeholder for a token of their own.
 */
export function cliSnippet(url: string, dataDir: string | null): string {
  const credential = dataDir === null ? 'SCANDESK_TOKEN=<your-token>' : `SCANDESK_DATA_DIR=${shellQuote(dataDir)}`;
  return `export SCANDESK_URL=${shellQuote(url)} ${credential}`;
}
