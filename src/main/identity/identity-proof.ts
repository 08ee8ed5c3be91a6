import { createHmac, timingSafeEqual } from 'node:crypto';

// docs/security.md, Server identity. The server proves it holds its data directory's key by
// answering a client's random challenge; the answer says nothing else and cannot be replayed
// for another challenge. It covers the port the server listens on, so that a program on another
// port cannot relay the challenge to the real server and pass its answer off as its own.

const CONTEXT = 'scandesk.identity.v1\0';

/** `port`: the server's own listening port; null for an app that is not listening (tests). */
export function identityProof(key: Buffer, challenge: string, port: number | null): string {
  return createHmac('sha256', key)
    .update(`${CONTEXT}${challenge}\0${port ?? ''}`)
    .digest('hex');
}

/** Whether `proof` answers `challenge` for `key` from a server on `port`, compared in constant time. */
export function isIdentityProof(key: Buffer, challenge: string, port: number, proof: unknown): boolean {
  if (typeof proof !== 'string') return false;
  const expected = Buffer.from(identityProof(key, challenge, port));
  const given = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
