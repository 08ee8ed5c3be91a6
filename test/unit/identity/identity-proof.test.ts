import { describe, expect, it } from 'vitest';
import { identityProof, isIdentityProof } from '../../../src/main/identity/identity-proof';

const key = Buffer.alloc(32, 7);
const other = Buffer.alloc(32, 8);
const challenge = 'c0ffee'.repeat(8);

describe('identity proofs', () => {
  it('match only the same key, challenge and port', () => {
    const proof = identityProof(key, challenge, 4790);
    expect(proof).toMatch(/^[0-9a-f]{64}$/);
    expect(isIdentityProof(key, challenge, 4790, proof)).toBe(true);
    expect(isIdentityProof(other, challenge, 4790, proof)).toBe(false);
    expect(isIdentityProof(key, `${challenge}00`, 4790, proof)).toBe(false);
    expect(isIdentityProof(key, challenge, 4791, proof)).toBe(false);
  });

  it('refuse anything that is not a proof', () => {
    for (const proof of [undefined, null, 42, '', 'ab', identityProof(key, challenge, 4790).toUpperCase()]) {
      expect(isIdentityProof(key, challenge, 4790, proof)).toBe(false);
    }
  });
});
