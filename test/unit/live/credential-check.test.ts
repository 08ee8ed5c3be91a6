import { describe, expect, it } from 'vitest';
import { credentialLives, type StoredCredentials } from '../../../src/main/live/credential-check';

const at = new Date('2026-11-26T12:00:00.000Z');
const stored: StoredCredentials = {
  tokenIds: new Set(['tok_1']),
  sessions: new Map([
    [
      'live',
      { last_used_at: '2026-11-26T11:00:00.000Z', idle_ms: 2 * 3600_000, expires_at: '2026-11-27T00:00:00.000Z' },
    ],
    [
      'idle',
      { last_used_at: '2026-11-26T09:00:00.000Z', idle_ms: 2 * 3600_000, expires_at: '2026-11-27T00:00:00.000Z' },
    ],
    [
      'expired',
      { last_used_at: '2026-11-26T11:59:00.000Z', idle_ms: 2 * 3600_000, expires_at: '2026-11-26T12:00:00.000Z' },
    ],
  ]),
};

describe('credentialLives', () => {
  it('keeps a stream whose token is still stored, and ends one whose token is gone', () => {
    expect(credentialLives({ kind: 'token', tokenId: 'tok_1' }, stored, at)).toBe(true);
    expect(credentialLives({ kind: 'token', tokenId: 'tok_2' }, stored, at)).toBe(false);
  });

  it('keeps a stream of a live session; ends those of sessions deleted, idle too long, or past their end', () => {
    expect(credentialLives({ kind: 'session', sessionIdHash: 'live' }, stored, at)).toBe(true);
    expect(credentialLives({ kind: 'session', sessionIdHash: 'gone' }, stored, at)).toBe(false);
    expect(credentialLives({ kind: 'session', sessionIdHash: 'idle' }, stored, at)).toBe(false);
    expect(credentialLives({ kind: 'session', sessionIdHash: 'expired' }, stored, at)).toBe(false);
  });

  it('does not take a session for a token of the same id, nor the reverse', () => {
    expect(credentialLives({ kind: 'session', sessionIdHash: 'tok_1' }, stored, at)).toBe(false);
    expect(credentialLives({ kind: 'token', tokenId: 'live' }, stored, at)).toBe(false);
  });
});
