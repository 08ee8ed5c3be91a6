import type { Db } from '../../db/index';
import { DESKTOP_SESSION } from '../../users/session-policy';
import { createSession, deleteSession } from '../../users/sessions.repository';
import { findWorkspaceOwner } from '../../users/users.repository';
import { SESSION_COOKIE, sessionCookieName } from './session-cookie';

// The desktop window signs in as the workspace owner with the same session cookie the browser
// gets from /?token= (docs/contract/auth.md#sessions), set by the shell itself so no token ever appears in a URL.
// Plain Node: the shell hands `cookie` to Electron's cookies.set unchanged.

/** The fields of Electron's CookiesSetDetails the shell sets; a plain object, for the tests. */
export interface SessionCookie {
  url: string;
  name: string;
  value: string;
  path: '/';
  httpOnly: true;
  sameSite: 'strict';
}

export interface DesktopSession {
  /** The workspace owner: the user the window, and the shell's own imports, act as. */
  userId: string;
  cookie: SessionCookie;
  /** Ends the session in the store, at quit: the cookie dies with the app anyway. */
  end(): Promise<void>;
}

export async function startDesktopSession(db: Db, serverUrl: string): Promise<DesktopSession> {
  const owner = await findWorkspaceOwner(db);
  if (!owner) throw new Error('the data directory has no workspace owner');
  const port = Number(new URL(serverUrl).port);
  const id = await createSession(db, owner.id, { lifetime: DESKTOP_SESSION, port });
  return {
    userId: owner.id,
    cookie: { url: serverUrl, name: sessionCookieName(port), value: id, ...SESSION_COOKIE },
    end: () => deleteSession(db, id),
  };
}
