import { describe, expect, it } from 'vitest';
import { identityProof, isIdentityProof } from '../../../src/main/identity/identity-proof';

const key = Buffer.alloc(32, 7);
const other = Buffer.alloc(32, 8);
const challenge = 'c0ffee'.repeat(8);

describe('identity proofs', () => {
  const at = { address: '127.0.0.1', port: 4790 };

  it('match only the same key, challenge, address and port', () => {
    const proof = identityProof(key, challenge, at);
    expect(proof).toMatch(/^[0-9a-f]{64}$/);
    expect(isIdentityProof(key, challenge, at, proof)).toBe(true);
    expect(isIdentityProof(other, challenge, at, proof)).toBe(false);
    expect(isIdentityProof(key, `${challenge}00`, at, proof)).toBe(false);
    expect(isIdentityProof(key, challenge, { ...at, port: 4791 }, proof)).toBe(false);
    // A relay on another loopback address with the same port.
    expect(isIdentityProof(key, challenge, { ...at, address: '::1' }, proof)).toBe(false);
    expect(isIdentityProof(key, challenge, { ...at, address: '127.0.0.2' }, proof)).toBe(false);
  });

  it('read an IPv4-mapped address as the IPv4 address it maps', () => {
    const proof = identityProof(key, challenge, at);
    expect(isIdentityProof(key, challenge, { ...at, address: '::ffff:127.0.0.1' }, proof)).toBe(true);
  });

  it('refuse anything that is not a proof', () => {
    for (const proof of [undefined, null, 42, '', 'ab', identityProof(key, challenge, at).toUpperCase()]) {
      expect(isIdentityProof(key, challenge, at, proof)).toBe(false);
    }
  });
});
