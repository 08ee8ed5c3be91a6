import type { UserRow } from '../db/index';
import { TOUCH_INTERVAL_MS } from './session-policy';

// Who may manage a token, what is kept about it besides its hash, and when its use is written
// down. Pure.

/**
 * Enough to tell two tokens apart, nothing to use: the prefix and the last four characters
 * (24 of a generated token's 256 random bits).
 */
export function tokenHint(token: string): string {
  return `${token.slice(0, 4)}…${token.slice(-4)}`;
}

/**
 * Whether a request with the token should write down its use: at most once a minute, like a
 * session's, so a busy token costs one small write a minute rather than one per request.
 */
export function isTokenUseDue(lastUsedAt: string | null, at: Date): boolean {
  if (lastUsedAt === null) return true;
  const since = at.getTime() - Date.parse(lastUsedAt);
  // A last use in the future means the clock was set back: write the true time.
  return since >= TOUCH_INTERVAL_MS || since < 0;
}

/** Each user manages their own tokens; the workspace owner manages everyone's. */
export function mayManageTokensOf(caller: Pick<UserRow, 'id' | 'is_workspace_owner'>, userId: string): boolean {
  return caller.id === userId || caller.is_workspace_owner === 1;
}
