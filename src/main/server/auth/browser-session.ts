import type { FastifyRequest } from 'fastify';
import type { Db, UserRow } from '../../db/index';
import { endStreams } from '../../live/live.service';
import { deleteSession, findUserBySession } from '../../users/sessions.repository';
import { hashToken } from '../../users/token';
import { sessionCookieName } from './session-cookie';

/** The user of the browser's live session on this server, if it has one. */
export async function currentSession(
  db: Db,
  request: FastifyRequest,
  port: number | null,
): Promise<{ id: string; user: UserRow } | undefined> {
  const id = request.cookies[sessionCookieName(port)];
  const user = id ? await findUserBySession(db, id, port) : undefined;
  return id && user ? { id, user } : undefined;
}

/** Ends a session (signed out, or replaced by a new sign-in) with the event streams it opened. */
export async function endSession(db: Db, sessionId: string): Promise<void> {
  await deleteSession(db, sessionId);
  endStreams(db, { sessionIdHash: hashToken(sessionId) });
}
