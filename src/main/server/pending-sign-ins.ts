import { randomBytes, timingSafeEqual } from 'node:crypto';
import { MINUTE_MS } from '../../shared/time';
import type { Db } from '../db/index';

// A sign-in link for another user than the one this browser is signed in as waits here for the
// person's answer (account-switch.routes.ts). Held in memory: a session is bound to the port, so
// the server that asked is the one that hears the answer, and a restart merely asks again.

/** How long the question may stay unanswered. */
export const PENDING_SIGN_IN_MS = 5 * MINUTE_MS;
/** Unanswered questions a server keeps at most; the oldest is forgotten first. */
export const MAX_PENDING_SIGN_INS = 32;

export interface PendingSignIn {
  /**
   * A session of the link's user made when the link was opened, lasting PENDING_SIGN_IN_MS and
   * never handed out: while it lives, the link's token is still good (revoking or rotating the
   * token ends it), so the server keeps no copy of the token.
   */
  witnessId: string;
  tokenId: string | undefined;
  /** Where the link pointed, without its token. */
  returnTo: string;
}

interface Entry extends PendingSignIn {
  /** Put in the question's form: an answer that cannot read our page cannot name it. */
  nonce: string;
  expiresAt: number;
}

const sameNonce = (a: string, b: string): boolean => {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
};

export class PendingSignIns {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Holds a sign-in back; returns the id for the browser's cookie and the form's nonce. */
  add(pending: PendingSignIn): { id: string; nonce: string } {
    this.forgetExpired();
    for (const id of this.entries.keys()) {
      if (this.entries.size < MAX_PENDING_SIGN_INS) break;
      this.entries.delete(id);
    }
    const id = randomBytes(32).toString('base64url');
    const nonce = randomBytes(32).toString('base64url');
    this.entries.set(id, { ...pending, nonce, expiresAt: this.now() + PENDING_SIGN_IN_MS });
    return { id, nonce };
  }

  /** The sign-in `id` names while it waits, with its nonce; it keeps waiting. */
  peek(id: string): (PendingSignIn & { nonce: string }) | undefined {
    this.forgetExpired();
    const entry = this.entries.get(id);
    return (
      entry && { witnessId: entry.witnessId, tokenId: entry.tokenId, returnTo: entry.returnTo, nonce: entry.nonce }
    );
  }

  /** Takes the sign-in out, answered, if `nonce` is its own; each is answered once. */
  take(id: string, nonce: string): PendingSignIn | undefined {
    const entry = this.peek(id);
    if (!entry || !sameNonce(entry.nonce, nonce)) return undefined;
    this.entries.delete(id);
    return { witnessId: entry.witnessId, tokenId: entry.tokenId, returnTo: entry.returnTo };
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}

const perStore = new WeakMap<Db, PendingSignIns>();

/** The pending sign-ins of the server running on `db` (one server per store in a process). */
export function pendingSignInsOf(db: Db): PendingSignIns {
  let pending = perStore.get(db);
  if (!pending) perStore.set(db, (pending = new PendingSignIns()));
  return pending;
}
