import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import type { UserRow } from '../db/tables/user.table';
import { findUserBySession } from '../users/sessions.repository';
import { findUserByToken } from '../users/users.repository';
import { HttpError } from './http-error';
import { type DomainError } from '../http/domain-error';
import { sessionCookieName } from '../users/session-policy';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set by the auth hook on every /v1 route. */
    user: UserRow;
    /** How the caller proved it: a session cookie is weaker (a browser sends it by itself). */
    authenticatedBy: 'bearer' | 'session';
  }
}

export const unauthorized = (message: string): DomainError =>
  new HttpError('unauthorized', message, [], { 'WWW-Authenticate': 'Bearer realm="scandesk"' });

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/** A bearer token, else the browser's session cookie for this server's port (same-origin only: see guards.ts). */
export async function authenticate(
  db: Db,
  request: FastifyRequest,
  port: number | null,
): Promise<Pick<FastifyRequest, 'user' | 'authenticatedBy'>> {
  const token = bearerToken(request);
  const sessionId = request.cookies[sessionCookieName(port)];
  if (token === null && sessionId) {
    const user = await findUserBySession(db, sessionId, port);
    if (!user) throw unauthorized('the session has ended; open the sign-in link again');
    return { user, authenticatedBy: 'session' };
  }
  if (token === null) throw unauthorized('missing token; send Authorization: Bearer <token>');
  const user = token ? await findUserByToken(db, token) : undefined;
  if (!user) throw unauthorized('unknown token');
  return { user, authenticatedBy: 'bearer' };
}
