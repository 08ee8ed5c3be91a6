// The few pages the server itself writes around sign-in. Plain HTML under the same CSP as the
// viewer: no script at all, inline style only. User names are other people's text: escaped.

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

// The viewer's own colours (styles.css), so that a page of ours looks like the rest of Scandesk.
const STYLE =
  ':root{color-scheme:light dark;--text:light-dark(#17202e,#e6ebf2);--muted:light-dark(#5a6577,#a2adbd);' +
  '--surface:light-dark(#fff,#1a2029);--border:light-dark(#d6dbe3,#333d4b);--accent:light-dark(#2456c7,#7aa2ff);' +
  '--accent-text:light-dark(#fff,#0d1320);--danger:light-dark(#b42318,#ff8a80)}' +
  'body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;' +
  'color:var(--text);background:light-dark(#f6f7f9,#11151c)}' +
  'button{font:inherit;padding:.45rem 1rem;margin:0 .5rem .5rem 0;cursor:pointer}' +
  'form.sign-in{display:grid;gap:.5rem;padding:1.5rem;background:var(--surface);border:1px solid var(--border);' +
  'border-radius:6px}form.sign-in button{justify-self:start;margin:.5rem 0 0;background:var(--accent);' +
  'color:var(--accent-text);border:1px solid var(--accent);border-radius:6px}' +
  'input{font:inherit;padding:.45rem .6rem;border:1px solid var(--border);border-radius:6px;' +
  'background:var(--surface);color:inherit}input[aria-invalid=true]{border-color:var(--danger)}' +
  '.error{color:var(--danger);font-weight:600;margin:0}.hint{color:var(--muted);margin:0}';

const htmlDocument = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escapeHtml(title)} · Scandesk</title><style>${STYLE}</style><main>${body}</main></html>`;

/** A page that says one thing; `html` is the server's own text, which may hold markup. */
export const messagePage = (html: string): string => htmlDocument('Scandesk', `<p>${html}</p>`);

export interface SwitchQuestion {
  /** Who this browser is signed in as; undefined when that session ended meanwhile. */
  current: string | undefined;
  /** Whom the link signs in as. */
  next: string;
  nonce: string;
  action: string;
}

/**
 * "You are signed in as A. Switch to B?" Staying is the first button, so Enter keeps the account
 * the person was using; the answer goes back in a same-origin POST carrying the question's nonce.
 */
export function switchPage({ current, next, nonce, action }: SwitchQuestion): string {
  const to = `<strong>${escapeHtml(next)}</strong>`;
  const from = current === undefined ? undefined : `<strong>${escapeHtml(current)}</strong>`;
  const intro =
    from === undefined
      ? `<p>The link you opened signs in to Scandesk as ${to}.</p>`
      : `<p>You are signed in to Scandesk as ${from}. The link you opened signs in as ${to}.</p>`;
  const stay = from === undefined ? 'Cancel' : `Stay signed in as ${from}`;
  const go = from === undefined ? `Sign in as ${to}` : `Switch to ${to}`;
  return htmlDocument(
    'Switch account?',
    `<h1>${from === undefined ? 'Sign in?' : 'Switch account?'}</h1>${intro}` +
      '<p>Go on only if you opened this link yourself to use that account: a link someone else ' +
      'sent could make what you do next happen under their account.</p>' +
      `<form method="post" action="${escapeHtml(action)}">` +
      `<input type="hidden" name="nonce" value="${escapeHtml(nonce)}">` +
      `<button type="submit" name="action" value="cancel" autofocus>${stay}</button>` +
      `<button type="submit" name="action" value="switch">${go}</button></form>`,
  );
}

export const SIGN_IN_PATH = '/sign-in';

/**
 * The sign-in form again, with why the last try failed: what a wrong token answers. The token
 * travels in the POST body only, never in an address; `returnTo` is where a right one leads.
 */
export function signInPage({ error, returnTo }: { error: string; returnTo: string }): string {
  return htmlDocument(
    'Sign in',
    '<h1>Sign in to Scandesk</h1>' +
      `<form class="sign-in" method="post" action="${SIGN_IN_PATH}">` +
      `<p class="error" id="sign-in-error" role="alert">${escapeHtml(error)}</p>` +
      '<label for="token">Token</label>' +
      '<input id="token" name="token" type="password" autocomplete="off" required autofocus ' +
      'aria-invalid="true" aria-describedby="sign-in-error">' +
      `<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">` +
      '<p class="hint">Run <code>scandesk token</code> on the machine that serves this workspace to print it.</p>' +
      '<button type="submit">Sign in</button></form>',
  );
}
