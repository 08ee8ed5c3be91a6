import { createHmac, timingSafeEqual } from 'node:crypto';

// docs/contract/auth.md#server-identity. The server proves it holds its data directory's key by
// answering a client's random challenge; the answer says nothing else and cannot be replayed
// for another challenge. It covers the address and port the connection reached, as the server's
// socket has them, so that a program on another address or port cannot relay the challenge to the
// real server and pass its answer off as its own: the answer would name the real server's socket.

const CONTEXT = 'scandesk.identity.v1\0';

/** The socket's end: an IPv4-mapped IPv6 address is the IPv4 address it maps. */
export interface SocketEnd {
  address: string;
  port: number;
}

export const normalizeAddress = (address: string): string => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

export function identityProof(key: Buffer, challenge: string, end: SocketEnd): string {
  return createHmac('sha256', key)
    .update(`${CONTEXT}${challenge}\0${normalizeAddress(end.address)}\0${end.port}`)
    .digest('hex');
}

/** Whether `proof` answers `challenge` for `key` from the socket `end`, compared in constant time. */
export function isIdentityProof(key: Buffer, challenge: string, end: SocketEnd, proof: unknown): boolean {
  if (typeof proof !== 'string') return false;
  const expected = Buffer.from(identityProof(key, challenge, end));
  const given = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
