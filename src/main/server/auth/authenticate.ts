import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/index';
import { findUserBySession } from '../../users/sessions.repository';
import { findTokenCredential } from '../../users/users.repository';
import { hashToken } from '../../users/token';
import { HttpError } from '../http-error';
import { type DomainError } from '../../domain-error';
import { sessionCookieName } from './session-cookie';

export const unauthorized = (message: string): DomainError =>
  new HttpError('unauthorized', message, [], { 'WWW-Authenticate': 'Bearer realm="scandesk"' });

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * A bearer token, else the browser's session cookie for this server's port (same-origin only:
 * the request guards refuse other origins first).
 */
export async function authenticate(
  db: Db,
  request: FastifyRequest,
  port: number | null,
): Promise<Pick<FastifyRequest, 'user' | 'authenticatedBy' | 'credential'>> {
  const token = bearerToken(request);
  const sessionId = request.cookies[sessionCookieName(port)];
  if (token === null && sessionId) {
    const user = await findUserBySession(db, sessionId, port);
    if (!user) throw unauthorized('the session has ended; open the sign-in link again');
    return { user, authenticatedBy: 'session', credential: { kind: 'session', sessionIdHash: hashToken(sessionId) } };
  }
  if (token === null) throw unauthorized('missing token; send Authorization: Bearer <token>');
  const found = token ? await findTokenCredential(db, token) : undefined;
  if (!found) throw unauthorized('unknown token');
  return { user: found.user, authenticatedBy: 'bearer', credential: { kind: 'token', tokenId: found.tokenId } };
}
