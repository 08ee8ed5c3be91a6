import { describe, expect, it } from 'vitest';
import {
  MAX_PENDING_SIGN_INS,
  PENDING_SIGN_IN_MS,
  PendingSignIns,
  type PendingSignIn,
} from '../../../../src/main/server/auth/pending-sign-ins';

const signIn = (n: number): PendingSignIn => ({ witnessId: `sds_${n}`, tokenId: `tok_${n}`, returnTo: `/p${n}` });

function clock(): { now: () => number; advance(ms: number): void } {
  let at = 1_000_000;
  return { now: () => at, advance: (ms) => (at += ms) };
}

describe('PendingSignIns', () => {
  it('gives each waiting sign-in an unguessable id and nonce, and takes it out once', () => {
    const pending = new PendingSignIns();
    const { id, nonce } = pending.add(signIn(1));
    const other = pending.add(signIn(2));
    expect(id).toMatch(/^[\w-]{43}$/);
    expect(nonce).toMatch(/^[\w-]{43}$/);
    expect(new Set([id, nonce, other.id, other.nonce]).size).toBe(4);
    expect(pending.peek(id)).toEqual({ ...signIn(1), nonce });
    expect(pending.take(id, nonce)).toEqual(signIn(1));
    expect(pending.peek(id)).toBeUndefined();
    expect(pending.take(id, nonce)).toBeUndefined();
    expect(pending.take(other.id, other.nonce)).toEqual(signIn(2));
  });

  it('does not take it out for another nonce, nor under another id', () => {
    const pending = new PendingSignIns();
    const { id, nonce } = pending.add(signIn(1));
    expect(pending.take(id, 'x')).toBeUndefined();
    expect(pending.take(id, `${nonce}x`)).toBeUndefined();
    expect(pending.take(nonce, nonce)).toBeUndefined();
    expect(pending.take('', '')).toBeUndefined();
    expect(pending.take(id, nonce)).toEqual(signIn(1));
  });

  it(`forgets a question unanswered for ${PENDING_SIGN_IN_MS / 60_000} minutes`, () => {
    const time = clock();
    const pending = new PendingSignIns(time.now);
    const { id, nonce } = pending.add(signIn(1));
    time.advance(PENDING_SIGN_IN_MS - 1);
    expect(pending.peek(id)).toBeDefined();
    time.advance(1);
    expect(pending.peek(id)).toBeUndefined();
    expect(pending.take(id, nonce)).toBeUndefined();
  });

  it(`keeps at most ${MAX_PENDING_SIGN_INS}, forgetting the oldest first`, () => {
    const pending = new PendingSignIns();
    const added = Array.from({ length: MAX_PENDING_SIGN_INS + 3 }, (_, n) => pending.add(signIn(n)));
    const kept = added.filter(({ id }) => pending.peek(id) !== undefined);
    expect(kept).toEqual(added.slice(3));
  });
});
