// The few pages the server itself writes around sign-in. Plain HTML under the same CSP as the
// viewer: no script at all, inline style only. User names are other people's text: escaped.

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem}' +
  'button{font:inherit;padding:.45rem 1rem;margin:0 .5rem .5rem 0;cursor:pointer}';

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
