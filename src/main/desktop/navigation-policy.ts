// What the desktop window may show and which links may leave it. Pure URL logic, apart from
// Electron, so that every case is unit-tested (test/unit/desktop/navigation-policy.test.ts).

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * True only for a URL on exactly the embedded server's origin: same scheme, host and port.
 * Compared as parsed origins, never as string prefixes: `http://127.0.0.1:4790.evil.example`
 * starts with the app's URL but is another host.
 */
export function isAppUrl(target: string, appUrl: string): boolean {
  const parsed = parse(target);
  const app = parse(appUrl);
  return parsed !== null && app !== null && parsed.origin !== 'null' && parsed.origin === app.origin;
}

// Names that reach this machine, or are dressed up to look as if they did (127.0.0.1.evil.example).
const LOCAL_LOOKING = /^(localhost|127\.|0\.|\[|::)|\.localhost$|^[\d.]+$/i;

/**
 * Links the system browser may open: only plain https to a named public host. Never file:,
 * javascript:, data: or plain http (which a local page could use to reach other local services),
 * never URLs with credentials (`https://app@evil.example`), never loopback or IP literals, and
 * never the app's own origin on any port: those belong to the app or to other local servers.
 */
export function isSafeExternalUrl(target: string, appUrl: string): boolean {
  const parsed = parse(target);
  if (!parsed || parsed.protocol !== 'https:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  const app = parse(appUrl);
  if (app && parsed.hostname === app.hostname) return false;
  if (LOCAL_LOOKING.test(parsed.hostname)) return false;
  // A single label (https://intranet) is a local name too.
  return parsed.hostname.includes('.');
}
