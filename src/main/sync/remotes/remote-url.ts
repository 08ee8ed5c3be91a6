/**
 * Which remote URLs a store will talk to (docs/contract/api.md#remotes): a token travels with every
 * request, so plain http only where nobody can listen in (this machine) unless the user said
 * otherwise; credentials, a query or a fragment in the URL would be sent, logged or dropped
 * where nobody expects, so they are refused rather than guessed at. A path prefix is kept: the
 * remote may sit under one behind a proxy.
 */

export type RemoteUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** 127.0.0.0/8, ::1 and `localhost`, as the WHATWG parser spells hosts (127.1 is 127.0.0.1 by then). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The base URL to store (no trailing slash), or why it is refused, in a sentence. */
export function checkRemoteUrl(input: string, allowInsecureHttp: boolean): RemoteUrlCheck {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, reason: 'is not a URL; give one such as https://scandesk.example.org' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: 'must start with https:// (or http:// to this machine)' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'must not hold a user name or password; the token goes separately' };
  }
  // `?` and `#` alone parse to an empty search or hash, yet were typed: refuse them too.
  if (url.search !== '' || input.includes('?')) return { ok: false, reason: 'must not have a query (?…)' };
  if (url.hash !== '' || input.includes('#')) return { ok: false, reason: 'must not have a fragment (#…)' };
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      reason: 'must use https: plain http is allowed only to this machine unless insecure http is allowed',
    };
  }
  const path = url.pathname.replace(/\/+$/, '');
  return { ok: true, url: `${url.protocol}//${url.host}${path}` };
}
