// A token or URL pasted into a shell must stay one word whatever it holds.
const SAFE = /^[\w@%+=:,./-]+$/;

/** POSIX shell quoting: bare when safe, else single quotes with embedded quotes escaped. */
export function shellQuote(value: string): string {
  if (SAFE.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The line that points the CLI at this server; without a token, a placeholder to fill in. */
export function cliSnippet(url: string, token: string | null): string {
  return `export SCANDESK_URL=${shellQuote(url)} SCANDESK_TOKEN=${token === null ? '<your-token>' : shellQuote(token)}`;
}

/** Shows a token's prefix and length only, for screens that others may see. */
export function maskToken(token: string): string {
  return token.length <= 8
    ? '•'.repeat(token.length)
    : `${token.slice(0, 4)}${'•'.repeat(Math.min(24, token.length - 4))}`;
}

/** The snippet as shown before the token is revealed: the mask needs no quoting, it is never run. */
export function maskedCliSnippet(url: string, token: string): string {
  return `export SCANDESK_URL=${shellQuote(url)} SCANDESK_TOKEN=${maskToken(token)}`;
}
