// Fetch Metadata (Sec-Fetch-*) decisions. Browsers send these headers on every request; their
// absence means a non-browser client (the CLI, curl), which cannot be tricked by a web page.
// Ports do not make sites: a page on 127.0.0.1:5000 is "same-site" to us, hence refused here too.

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Requests another page (any other origin, same host or not) made the browser send. */
export function isFromAnotherOrigin(headers: Headers): boolean {
  const site = header(headers, 'sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}

/**
 * The `/?token=` sign-in is honoured only as a top-level navigation the user started (typed,
 * pasted, opened from a terminal) or our own page made: an `<img>`, `fetch` or frame from another
 * local page must not switch this browser to another account.
 */
export function isUserNavigation(headers: Headers): boolean {
  const site = header(headers, 'sec-fetch-site');
  const mode = header(headers, 'sec-fetch-mode');
  const dest = header(headers, 'sec-fetch-dest');
  if (site !== undefined && site !== 'none' && site !== 'same-origin') return false;
  if (mode !== undefined && mode !== 'navigate') return false;
  if (dest !== undefined && dest !== 'document') return false;
  return true;
}
